import Foundation
import HostTesting
import JSON
@testable import SyncAuth
import SystemIO
import Testing

@Suite("JSON Web Tokens")
struct TokenVerifierTests {
    let secret = Array("a shared secret of enough bytes".utf8)
    let now: Int64 = 1_800_000_000

    func claims(exp: Int64? = nil) -> TokenClaims {
        TokenClaims(subject: "alice", scopes: ["user:alice", "team:t1"], expiresAt: exp ?? now + 600, issuedAt: now)
    }

    @Test("an HS256 token round-trips its claims")
    func hs256() throws {
        let token = TokenSigner(secret: secret).sign(claims())
        #expect(try TokenVerifier(secret: secret).verify(token, now: now) == claims())
    }

    @Test("an EdDSA token verifies with the public key read from PEM, as openssl writes it")
    func edDSA() throws {
        let keys = TokenSigner.generateEd25519()
        let folder = TemporaryFolder()
        try keys.privateKey.write(toFile: folder.path + "/private.pem", atomically: true, encoding: .utf8)
        try keys.publicKey.write(toFile: folder.path + "/public.pem", atomically: true, encoding: .utf8)
        let token = try TokenSigner(privateKeyFile: folder.path + "/private.pem").sign(claims())
        #expect(try TokenVerifier(publicKeyFile: folder.path + "/public.pem").verify(token, now: now) == claims())
    }

    @Test("openssl's Ed25519 key files are read")
    func opensslKeys() throws {
        let folder = TemporaryFolder()
        #expect(try ChildProcess.run("/usr/bin/openssl", ["genpkey", "-algorithm", "ed25519", "-out", folder.path + "/k.pem"]).status == 0)
        #expect(try ChildProcess.run("/usr/bin/openssl", ["pkey", "-in", folder.path + "/k.pem", "-pubout", "-out", folder.path + "/k.pub"]).status == 0)
        let token = try TokenSigner(privateKeyFile: folder.path + "/k.pem").sign(claims())
        #expect(try TokenVerifier(publicKeyFile: folder.path + "/k.pub").verify(token, now: now).subject == "alice")
    }

    func refusal(_ token: String, verifier: TokenVerifier? = nil) -> TokenError.Reason? {
        do {
            _ = try (verifier ?? TokenVerifier(secret: secret)).verify(token, now: now)
            return nil
        } catch {
            return error.reason
        }
    }

    func forged(header: JSONValue, payload: JSONValue, signature: [UInt8] = []) -> String {
        Base64URL.encode(JSONWriter.bytes(header)) + "." + Base64URL.encode(JSONWriter.bytes(payload)) + "." + Base64URL.encode(signature)
    }

    @Test("expired, wrong key, alg none, a public key used as an HMAC secret and garbage are refused with their reason")
    func refusals() {
        #expect(refusal(TokenSigner(secret: secret).sign(claims(exp: now))) == .expired)
        #expect(refusal(TokenSigner(secret: Array("another secret of enough bytes".utf8)).sign(claims())) == .signature)
        #expect(refusal(forged(header: ["alg": "none"], payload: .object(claims().json))) == .algorithm)
        let edKeys = TokenSigner.generateEd25519()
        let edOnly = try! TokenVerifier(publicKey: Ed25519PEM.publicKey(pem: edKeys.publicKey))
        // HS256 signed with the public key's bytes: refused, the verifier has no HMAC secret.
        #expect(refusal(TokenSigner(secret: Array(edKeys.publicKey.utf8)).sign(claims()), verifier: edOnly) == .algorithm)
        #expect(refusal("not.a-token") == .malformed)
        #expect(refusal("a.b.c") == .malformed)
        #expect(refusal(TokenSigner(secret: secret).sign(claims()) + "x") != nil)
        let noExp = forged(header: ["alg": "HS256"], payload: ["sub": "alice"])
        #expect(refusal(noExp) == .signature)  // unsigned: the signature is checked before the claims
    }

    @Test("a signed token without exp or sub is refused as claims")
    func missingClaims() {
        func signed(_ payload: JSONValue) -> String {
            let body = Base64URL.encode(JSONWriter.bytes(["alg": "HS256", "typ": "JWT"])) + "." + Base64URL.encode(JSONWriter.bytes(payload))
            let signature = TokenSigner(secret: secret).signature(of: body)
            return body + "." + Base64URL.encode(signature)
        }
        #expect(refusal(signed(["sub": "alice"])) == .claims)
        #expect(refusal(signed(["exp": .number(Double(now + 60))])) == .claims)
        #expect(refusal(signed(["sub": "alice", "exp": .number(Double(now + 60)), "scopes": "team:t1"])) == .claims)
    }
}
