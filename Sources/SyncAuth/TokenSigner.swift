import Crypto
import JSON

/// Mints tokens the way an app's auth server would, for `hybrid sync-server token`, demos and tests.
///
/// ```swift
/// let signer = try TokenSigner(secretFile: "/etc/hybrid/sync-secret")
/// let token = signer.sign(TokenClaims(subject: "alice", scopes: ["user:alice"], expiresAt: now + 3600))
/// ```
public struct TokenSigner: Sendable {
    // Raw bytes, as in TokenVerifier: swift-crypto's key types are not Sendable.
    private enum Key {
        case hs256([UInt8])
        case edDSA([UInt8])
    }

    private let key: Key

    public init(secret: [UInt8]) { key = .hs256(secret) }

    public init(privateKey: Curve25519.Signing.PrivateKey) { key = .edDSA(Array(privateKey.rawRepresentation)) }

    /// HS256 with the secret in `path` (read as ``TokenVerifier`` reads it).
    public init(secretFile path: String) throws(TokenError) { self.init(secret: try TokenVerifier.readSecret(path)) }

    /// EdDSA with the Ed25519 private key (PKCS #8 PEM) in `path`.
    public init(privateKeyFile path: String) throws(TokenError) {
        self.init(privateKey: try Ed25519PEM.privateKey(pem: TokenVerifier.readText(path)))
    }

    public var algorithm: String {
        switch key {
        case .hs256: "HS256"
        case .edDSA: "EdDSA"
        }
    }

    public func sign(_ claims: TokenClaims) -> String {
        let header = Base64URL.encode(JSONWriter.bytes(["alg": .string(algorithm), "typ": "JWT"]))
        let payload = Base64URL.encode(JSONWriter.bytes(.object(claims.json)))
        return header + "." + payload + "." + Base64URL.encode(signature(of: header + "." + payload))
    }

    /// The signature of a token's first two parts.
    func signature(of signingInput: String) -> [UInt8] {
        let signed = Array(signingInput.utf8)
        switch key {
        case .hs256(let secret):
            return Array(HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret)))
        case .edDSA(let raw):
            // The bytes came from a valid key, so neither step can fail.
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw), let signature = try? key.signature(for: signed) else { return [] }
            return Array(signature)
        }
    }

    /// A new Ed25519 key pair as PEM (private PKCS #8, public SubjectPublicKeyInfo).
    public static func generateEd25519() -> (privateKey: String, publicKey: String) {
        let key = Curve25519.Signing.PrivateKey()
        return (Ed25519PEM.pem(privateKey: key), Ed25519PEM.pem(publicKey: key.publicKey))
    }
}
