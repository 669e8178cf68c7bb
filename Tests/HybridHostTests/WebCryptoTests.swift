import Foundation
import HostTesting
import Testing

/// WebCrypto (issue 29, item 3) as a user runs it: one script with fixed keys, ivs and inputs under
/// `hybrid run` and under node 20, stdout compared line by line: a JWS (HS256) made by hand, AES-GCM,
/// CBC, CTR and KW bytes, PBKDF2 and HKDF bits, JWK exports, Ed25519's signature and the errors'
/// names. js/tests/web-crypto.test.js covers what node does not share (keys that never reach JS,
/// error messages); the web-platform-tests' WebCryptoAPI/ the specification's cases.
@Suite("WebCrypto beside node")
struct WebCryptoTests {
    @Test("the fixture prints what node prints: a hand-made JWS, AES-GCM with a fixed key and iv, the other ciphers' and KDFs' bytes, the errors")
    func sameAsNode() async throws {
        let script = HybridProcess.fixture("scripts/web-crypto.mjs")
        let node = try await HybridProcess.tool(["node", script], mergingErrors: true)
        #expect(node.status == 0, "node: \(node.output)")
        #expect(node.output.contains("aes-gcm open ship 3 widgets to Leeds"), "node: \(node.output)")
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
