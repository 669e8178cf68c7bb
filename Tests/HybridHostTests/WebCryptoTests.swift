import Foundation
import HostTesting
import Testing

/// WebCrypto (issue 29, item 3) as a user runs it: one script with fixed keys, ivs and inputs under
/// `hybrid run` and under node 20, stdout compared line by line: a JWS (HS256) made by hand, AES-GCM,
/// CBC, CTR and KW bytes, PBKDF2 and HKDF bits, JWK exports, Ed25519's signature and the errors'
/// names; and, in a second script, what OpenSSL's libcrypto does for us (Ed448, X448, RSA-OAEP with
/// a label or SHA-384/512, RSA-PSS with any salt). js/tests/web-crypto.test.js covers what node
/// does not share (keys that never reach JS, error messages); the web-platform-tests' WebCryptoAPI/
/// the specification's cases.
@Suite("WebCrypto beside node")
struct WebCryptoTests {
    @Test("the fixture prints what node prints: a hand-made JWS, AES-GCM with a fixed key and iv, the other ciphers' and KDFs' bytes, the errors")
    func sameAsNode() async throws {
        try await expectSameOutput("scripts/web-crypto.mjs", nodeOutputContains: "aes-gcm open ship 3 widgets to Leeds")
    }

    @Test("where libcrypto does the work, the fixture prints what node prints: RFC 8032's Ed448 and RFC 7748's X448 answers, RSA-OAEP and RSA-PSS outputs that each runtime made, checked by both")
    func libCryptoSameAsNode() async throws {
        try await expectSameOutput("scripts/web-crypto-libcrypto.mjs", nodeOutputContains: "rsa-pss SHA-512 100 made by hybrid true false false")
    }

    /// Runs `fixture` under node and `hybrid run` and compares their stdout line by line. Node's
    /// warnings are left out: Ed448 and X448 are experimental in node 20, which says so on stderr.
    func expectSameOutput(_ fixture: String, nodeOutputContains sentinel: String) async throws {
        let script = HybridProcess.fixture(fixture)
        let node = try await HybridProcess.tool(["node", "--no-warnings", script], mergingErrors: true)
        #expect(node.status == 0, "node: \(node.output)")
        #expect(node.output.contains(sentinel), "node: \(node.output)")
        let ours = try await HybridProcess.run(["run", script], timeLimit: .seconds(300))
        #expect(ours.status == 0, "\(ours)")
        let expected = node.output.split(separator: "\n", omittingEmptySubsequences: false)
        let actual = ours.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(actual.count == expected.count, "\(actual.count) lines from hybrid, \(expected.count) from node")
        for (index, (mine, theirs)) in zip(actual, expected).enumerated() where mine != theirs {
            Issue.record("line \(index + 1)\n  hybrid: \(mine)\n  node:   \(theirs)")
        }
    }
}
