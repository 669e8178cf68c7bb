import JSON
@testable import SyncAuth

/// What the token tests share: a secret, an Ed25519 key pair, a fixed clock, and tokens made of any
/// header and payload text, byte for byte, signed as an auth server (or an attacker holding the
/// key) would sign them.
enum TokenFixture {
    static let secret = Array("a shared secret of enough bytes".utf8)
    static let now: Int64 = 1_800_000_000
    static let edKeys = TokenSigner.generateEd25519()

    static var hsSigner: TokenSigner { TokenSigner(secret: secret) }
    static var edSigner: TokenSigner { try! TokenSigner(privateKey: Ed25519PEM.privateKey(pem: edKeys.privateKey)) }
    static var hsVerifier: TokenVerifier { TokenVerifier(secret: secret) }
    static var edVerifier: TokenVerifier { try! TokenVerifier(publicKey: Ed25519PEM.publicKey(pem: edKeys.publicKey)) }
    static var bothVerifier: TokenVerifier { try! TokenVerifier(secret: secret, publicKey: Ed25519PEM.publicKey(pem: edKeys.publicKey)) }

    /// A payload that verifies: alice, two scopes, ten minutes left.
    static var payload: JSONObject { ["sub": "alice", "scopes": ["user:alice", "team:t1"], "exp": .number(Double(now + 600))] }

    /// `payload` with `changes` made and the claims `removing` names taken out.
    static func payload(_ changes: [String: JSONValue], removing: [String] = []) -> JSONValue {
        var object = payload
        for (key, value) in changes { object[key] = value }
        for key in removing { object[key] = Optional<JSONValue>.none }
        return .object(object)
    }

    /// The header and payload texts as given, signed by `signer` whatever the header's `alg` says.
    static func token(header: String = #"{"alg":"HS256","typ":"JWT"}"#, payload: String, signer: TokenSigner = hsSigner) -> String {
        let signingInput = Base64URL.encode(header.utf8) + "." + Base64URL.encode(payload.utf8)
        return signingInput + "." + Base64URL.encode(signer.signature(of: signingInput))
    }

    static func token(header: JSONValue = ["alg": "HS256", "typ": "JWT"], payload: JSONValue, signer: TokenSigner = hsSigner) -> String {
        token(header: JSONWriter.write(header), payload: JSONWriter.write(payload), signer: signer)
    }

    /// Why `verifier` refuses `token`, or nil when it accepts it.
    static func refusal(_ token: String, by verifier: TokenVerifier = hsVerifier, now: Int64 = now) -> TokenError? {
        do {
            _ = try verifier.verify(token, now: now)
            return nil
        } catch {
            return error
        }
    }
}
