import JSON
@testable import SyncAuth
import Testing

/// What a header may say: an `alg` this verifier holds a key for, no `crit`, and nothing else that
/// picks a key. Tokens here are signed with the verifier's own key unless a test says otherwise.
@Suite("token headers")
struct TokenHeaderTests {
    typealias F = TokenFixture

    @Test("alg none in any spelling, and any algorithm the verifier holds no key for, is refused as algorithm, signed or not",
          arguments: ["none", "None", "NONE", "nOnE", "", "HS384", "HS512", "RS256", "ES256", "PS256", "hs256", "HS256 ", " HS256", "eddsa", "Ed25519",
                      "HS256\u{0}", "EdDSA\n"])
    func unacceptedAlgorithm(alg: String) {
        let payload = JSONWriter.write(.object(F.payload))
        let header = JSONWriter.write(["alg": .string(alg), "typ": "JWT"])
        let unsigned = F.token(header: header, payload: payload).split(separator: ".").prefix(2).joined(separator: ".") + "."
        #expect(F.refusal(unsigned, by: F.bothVerifier)?.reason == .algorithm)
        // Signed with the server's own secret and key: still not an algorithm it accepts.
        #expect(F.refusal(F.token(header: header, payload: payload, signer: F.hsSigner), by: F.bothVerifier)?.reason == .algorithm)
        #expect(F.refusal(F.token(header: header, payload: payload, signer: F.edSigner), by: F.bothVerifier)?.reason == .algorithm)
    }

    @Test("each verifier takes only the algorithm of the key it holds")
    func algorithmPerKey() {
        let hs = F.token(payload: .object(F.payload), signer: F.hsSigner)
        let ed = F.token(header: ["alg": "EdDSA", "typ": "JWT"], payload: .object(F.payload), signer: F.edSigner)
        #expect(F.refusal(hs, by: F.hsVerifier) == nil)
        #expect(F.refusal(ed, by: F.edVerifier) == nil)
        #expect(F.refusal(hs, by: F.bothVerifier) == nil)
        #expect(F.refusal(ed, by: F.bothVerifier) == nil)
        #expect(F.refusal(hs, by: F.edVerifier)?.reason == .algorithm)
        #expect(F.refusal(ed, by: F.hsVerifier)?.reason == .algorithm)
    }

    @Test("an alg that is missing or not a string is refused as malformed",
          arguments: [JSONValue.object(["typ": "JWT"]), ["alg": nil], ["alg": 256], ["alg": ["HS256"]], ["alg": ["name": "HS256"]], ["alg": true],
                      .array(["HS256"]), .string("HS256"), .null])
    func algorithmNotAString(header: JSONValue) {
        #expect(F.refusal(F.token(header: header, payload: .object(F.payload))) == TokenError(.malformed, "header.alg: expected a string"))
    }

    @Test("a header whose crit names any extension is refused as malformed, even signed with the server's key (RFC 7515 §4.1.11)",
          arguments: [["b64"], ["exp"], ["alg"], ["http://example.com/ext", "b64"], ["crit"]] as [[String]])
    func criticalExtension(names: [String]) throws {
        var header: JSONObject = ["alg": "HS256", "typ": "JWT", "crit": .array(names.map(JSONValue.string))]
        for name in names where header[name] == nil { header[name] = false }
        let error = try #require(F.refusal(F.token(header: .object(header), payload: .object(F.payload))))
        #expect(error.reason == .malformed)
        #expect(error.message.hasPrefix("header.crit: expected no extension that must be understood"), "\(error)")
        #expect(error.message.hasSuffix("got " + JSONWriter.write(.array(names.map(JSONValue.string)))), "\(error)")
    }

    @Test("a crit that is not a non-empty array of names is refused as malformed",
          arguments: [JSONValue.array([]), "b64", 1, .null, true, .object(["b64": true]), [1], ["b64", nil], [["b64"]]])
    func criticalNotNames(crit: JSONValue) throws {
        let error = try #require(F.refusal(F.token(header: ["alg": "HS256", "crit": crit], payload: .object(F.payload))))
        #expect(error.reason == .malformed)
        #expect(error.message.hasPrefix("header.crit: expected a non-empty array of header parameter names, got "), "\(error)")
    }

    @Test("a key the header offers (jwk, jku, x5u, x5c, kid) is never used: the token is checked with the server's key alone")
    func keysInTheHeaderAreIgnored() throws {
        let attacker = TokenSigner.generateEd25519()
        let attackerSigner = try TokenSigner(privateKey: Ed25519PEM.privateKey(pem: attacker.privateKey))
        let header: JSONValue = ["alg": "EdDSA", "typ": "JWT", "jwk": ["kty": "OKP", "crv": "Ed25519", "x": .string(attacker.publicKey)],
                                 "jku": "https://attacker.example/keys", "x5u": "https://attacker.example/cert", "x5c": [], "kid": "../../dev/null"]
        #expect(F.refusal(F.token(header: header, payload: .object(F.payload), signer: attackerSigner), by: F.edVerifier)?.reason == .signature)
        // The same header signed with the server's key verifies: the extra parameters are not refused, only not believed.
        #expect(F.refusal(F.token(header: header, payload: .object(F.payload), signer: F.edSigner), by: F.edVerifier) == nil)
    }

    @Test("text that is not three base64url parts of JSON is refused as malformed",
          arguments: ["", ".", "..", "...", "a.b", "a.b.c.d", "a.b.c", "eyJhbGciOiJIUzI1NiJ9=.e30.", "eyJhbGciOiJIUzI1NiJ9 .e30.",
                      "W10.e30.", "bnVsbA.e30.", "eyJhbGciOiJIUzI1NiJ9.e30.\u{301}", "eyJhbGciOiJIUzI1NiJ9.e30.A="])
    func malformed(token: String) {
        #expect(F.refusal(token, by: F.bothVerifier)?.reason == .malformed)
    }
}
