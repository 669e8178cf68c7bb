import Crypto
import Foundation
import JSON

/// Verifies the JSON Web Tokens an app's auth server issues: HS256 with a shared secret, EdDSA
/// (Ed25519) with a public key, or either when both are given.
///
/// The header's `alg` picks the key, and only a key the verifier holds can be picked: `none`, RS256
/// or HS256 against a server that has only a public key are refused as `algorithm`, so a token
/// signed with the public key as an HMAC secret (the classic confusion) never verifies. A header
/// with `crit` is refused (no extension is understood here), and so is a token before its `nbf`.
///
/// ```swift
/// let verifier = try TokenVerifier(secretFile: "/etc/hybrid/sync-secret")
/// let claims = try verifier.verify(token, now: Int64(Date().timeIntervalSince1970))
/// claims.subject   // "alice"
/// ```
public struct TokenVerifier: Sendable {
    // Raw bytes: swift-crypto's key types are not Sendable, and a verifier is shared by every request.
    private let secret: [UInt8]?
    private let publicKey: [UInt8]?

    public init(secret: [UInt8]? = nil, publicKey: Curve25519.Signing.PublicKey? = nil) {
        self.secret = secret
        self.publicKey = publicKey.map { Array($0.rawRepresentation) }
    }

    /// Reads the keys the command line names: a secret file (its bytes, less one trailing newline)
    /// and/or an Ed25519 public key in PEM.
    public init(secretFile: String? = nil, publicKeyFile: String? = nil) throws(TokenError) {
        let secret = try secretFile.map { (path) throws(TokenError) in try Self.readSecret(path) }
        let publicKey = try publicKeyFile.map { (path) throws(TokenError) in try Ed25519PEM.publicKey(pem: Self.readText(path)) }
        self.init(secret: secret, publicKey: publicKey)
    }

    /// The algorithms this verifier accepts, for the server's start-up line.
    public var algorithms: [String] {
        (secret == nil ? [] : ["HS256"]) + (publicKey == nil ? [] : ["EdDSA"])
    }

    /// The token's claims, or why it is refused.
    ///
    /// `exp` and `nbf` are compared with `now` as they are, with no leeway for clock skew: a token
    /// is refused from its `exp` second on and before its `nbf` second. Issuers that stamp `nbf`
    /// with their own clock should stamp it a little early.
    public func verify(_ token: String, now: Int64) throws(TokenError) -> TokenClaims {
        // Split on the bytes: a "." followed by a combining mark is one Character, not a separator.
        let parts = token.utf8.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false).map(Substring.init)
        guard parts.count == 3 else { throw TokenError(.malformed, "expected a JSON Web Token: three base64url parts joined by dots") }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONParser.parse(headerBytes) else {
            throw TokenError(.malformed, "header: expected base64url JSON")
        }
        guard case .string(let algorithm)? = header["alg"] else { throw TokenError(.malformed, "header.alg: expected a string") }
        try Self.refuseCritical(header["crit"])
        guard let signature = Base64URL.decode(parts[2]) else { throw TokenError(.malformed, "signature: expected base64url") }
        let signed = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        switch algorithm {
        case "HS256" where secret != nil:
            guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signed, using: SymmetricKey(data: secret!)) else {
                throw TokenError(.signature, "the HS256 signature does not verify with the server's secret")
            }
        case "EdDSA" where publicKey != nil:
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey!), key.isValidSignature(signature, for: signed) else {
                throw TokenError(.signature, "the EdDSA signature does not verify with the server's public key")
            }
        default:
            // As JSON text: the name is the sender's, and may hold quotes or line breaks.
            throw TokenError(.algorithm, "alg \(JSONWriter.write(.string(algorithm))) is not accepted here; expected \(algorithms.joined(separator: " or "))")
        }
        guard let payloadBytes = Base64URL.decode(parts[1]), let payload = try? JSONParser.parse(payloadBytes) else {
            throw TokenError(.malformed, "payload: expected base64url JSON")
        }
        let claims = try TokenClaims(payload: payload)
        guard now < claims.expiresAt else {
            throw TokenError(.expired, "the token expired at \(claims.expiresAt) (now \(now))")
        }
        if let notBefore = claims.notBefore, now < notBefore {
            throw TokenError(.notYetValid, "the token is not valid before \(notBefore) (nbf; now \(now))")
        }
        return claims
    }

    /// RFC 7515 §4.1.11: a header's `crit` lists extensions the recipient must understand and
    /// process, or refuse the token. This verifier understands none (`b64: false` of RFC 7797, say,
    /// would change what is signed), so a token with any `crit` is refused; one that is not a
    /// non-empty array of names is not a valid header besides.
    static func refuseCritical(_ crit: JSONValue?) throws(TokenError) {
        guard let crit else { return }
        guard case .array(let names) = crit, !names.isEmpty, names.allSatisfy({ $0.stringValue != nil }) else {
            let got = if case .array(let names) = crit { names.isEmpty ? "an empty array" : "an array holding a non-string" } else { crit.typeName }
            throw TokenError(.malformed, "header.crit: expected a non-empty array of header parameter names, got \(got)")
        }
        throw TokenError(.malformed, "header.crit: expected no extension that must be understood (this verifier understands none; "
            + "RFC 7515 §4.1.11), got \(JSONWriter.write(crit))")
    }

    static func readSecret(_ path: String) throws(TokenError) -> [UInt8] {
        var bytes = Array(try readText(path).utf8)
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        guard bytes.count >= 16 else { throw TokenError(.key, "\(path): a secret of at least 16 bytes is expected, found \(bytes.count)") }
        return bytes
    }

    static func readText(_ path: String) throws(TokenError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw TokenError(.key, "\(path): cannot read the file") }
        return String(decoding: data, as: UTF8.self)
    }
}
