// The SyncAuth module: JSON Web Tokens as the sync server reads them (HS256 with a shared secret,
// EdDSA over Ed25519 with a public key) and as operators and tests mint them. Pure values and
// swift-crypto; no HTTP, no database. It must never accept a token whose algorithm it was not
// given a key for (`none` included), nor one without an expiry.
import JSON

/// What a verified token says: whose it is, what it may see, and until when.
///
/// Claims: `sub` (the user), `scopes` (an array of strings such as `"user:alice"`, `"team:t1"`),
/// `exp` (seconds since 1970, required), `iat` (optional).
public struct TokenClaims: Sendable, Equatable {
    public var subject: String
    public var scopes: [String]
    /// Seconds since 1970; a token is refused from this second on.
    public var expiresAt: Int64
    public var issuedAt: Int64?

    public init(subject: String, scopes: [String], expiresAt: Int64, issuedAt: Int64? = nil) {
        self.subject = subject
        self.scopes = scopes
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
    }

    /// The payload's JSON object.
    public var json: JSONObject {
        var object: JSONObject = [
            "sub": .string(subject), "scopes": .array(scopes.map(JSONValue.string)), "exp": .number(Double(expiresAt)),
        ]
        if let issuedAt { object["iat"] = .number(Double(issuedAt)) }
        return object
    }

    /// Reads a payload, refusing it (reason `claims`) when a required claim is missing or mistyped.
    init(payload: JSONValue) throws(TokenError) {
        guard case .object(let object) = payload else { throw TokenError(.claims, "payload: expected a JSON object") }
        guard case .string(let subject)? = object["sub"], !subject.isEmpty else {
            throw TokenError(.claims, "sub: expected a non-empty string naming the user")
        }
        guard case .number(let exp)? = object["exp"], exp.isFinite, exp == exp.rounded() else {
            throw TokenError(.claims, "exp: expected the expiry in whole seconds since 1970 (required)")
        }
        var scopes: [String] = []
        switch object["scopes"] {
        case nil: break
        case .array(let values)?:
            for (index, value) in values.enumerated() {
                guard case .string(let scope) = value, !scope.isEmpty else {
                    throw TokenError(.claims, "scopes/\(index): expected a non-empty string")
                }
                scopes.append(scope)
            }
        case let other?: throw TokenError(.claims, "scopes: expected an array of strings, got \(other.typeName)")
        }
        var issuedAt: Int64?
        if case .number(let iat)? = object["iat"], iat.isFinite { issuedAt = Int64(iat) }
        self.init(subject: subject, scopes: scopes, expiresAt: Int64(exp), issuedAt: issuedAt)
    }
}
