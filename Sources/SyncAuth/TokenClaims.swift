// The SyncAuth module: JSON Web Tokens as the sync server reads them (HS256 with a shared secret,
// EdDSA over Ed25519 with a public key) and as operators and tests mint them. Pure values and
// swift-crypto; no HTTP, no database. It must never accept a token whose algorithm it was not
// given a key for (`none` included), nor one without an expiry, nor a subject or scope holding a
// control character; it must never trap on what a token says, and never change or merge the
// bytes of a subject or scope (no Unicode normalisation, no Set<String>).
import JSON

/// What a verified token says: whose it is, what it may see, and from when until when.
///
/// Claims: `sub` (the user), `scopes` (an array of strings such as `"user:alice"`, `"team:t1"`),
/// `exp` (seconds since 1970, required), `iat` and `nbf` (optional). Every time is whole seconds
/// in ``timeRange``.
///
/// The subject and scopes are the token's bytes, as they were: equality compares them byte for
/// byte, not as Swift's `String ==` does (which holds `"team:café"` with a precomposed é equal to
/// `"team:cafe\u{301}"` with a combining accent), because the database that scopes rows compares
/// bytes. A scope that appears twice stays twice.
public struct TokenClaims: Sendable, Equatable {
    public var subject: String
    public var scopes: [String]
    /// Seconds since 1970; a token is refused from this second on.
    public var expiresAt: Int64
    public var issuedAt: Int64?
    /// Seconds since 1970; a token is refused before this second.
    public var notBefore: Int64?

    /// The seconds a time claim (`exp`, `iat`, `nbf`) may hold: 1970-01-01T00:00:00Z to
    /// 9999-12-31T23:59:59Z, RFC 3339's range. Checked before a claim becomes an Int64 (which traps
    /// past ±2⁶³: `1e19`, `1e300`); each time in it is exact as a JSON number (below 2⁵³), and adding
    /// any sane duration to it cannot overflow.
    public static let timeRange: ClosedRange<Int64> = 0...253_402_300_799

    public init(subject: String, scopes: [String], expiresAt: Int64, issuedAt: Int64? = nil, notBefore: Int64? = nil) {
        self.subject = subject
        self.scopes = scopes
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.notBefore = notBefore
    }

    /// Byte for byte (see the type's comment).
    public static func == (lhs: TokenClaims, rhs: TokenClaims) -> Bool {
        lhs.subject.utf8.elementsEqual(rhs.subject.utf8)
            && lhs.scopes.count == rhs.scopes.count
            && zip(lhs.scopes, rhs.scopes).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
            && lhs.expiresAt == rhs.expiresAt && lhs.issuedAt == rhs.issuedAt && lhs.notBefore == rhs.notBefore
    }

    /// The payload's JSON object.
    public var json: JSONObject {
        var object: JSONObject = [
            "sub": .string(subject), "scopes": .array(scopes.map(JSONValue.string)), "exp": .number(Double(expiresAt)),
        ]
        if let issuedAt { object["iat"] = .number(Double(issuedAt)) }
        if let notBefore { object["nbf"] = .number(Double(notBefore)) }
        return object
    }

    /// Why `name` cannot be a subject or a scope, or nil when it can, as the rest of a message that
    /// names the field: the first C0 control (U+0000–U+001F), DEL or C1 control (U+007F–U+009F),
    /// line or paragraph separator (U+2028, U+2029) in it. Subjects and scopes end up joined into
    /// lines and keys (the server's device cache joins them with newlines, logs write them a line
    /// each), where `"bob\nuser:bob"` would read as bob's; refused here, once, for the verifier and
    /// for `hybrid sync-server token`. Emptiness is each caller's own check.
    public static func controlCharacterProblem(in name: String) -> String? {
        for (offset, scalar) in name.unicodeScalars.enumerated() where isControl(scalar) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "expected no control character (U+0000-U+001F, U+007F-U+009F) nor line separator (U+2028, U+2029), "
                + "found U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex) at scalar \(offset)"
        }
        return nil
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// Reads a payload, refusing it (reason `claims`) when a required claim is missing, a claim is
    /// mistyped or out of range, or a subject or scope is empty or holds a control character.
    init(payload: JSONValue) throws(TokenError) {
        guard case .object(let object) = payload else { throw TokenError(.claims, "payload: expected a JSON object") }
        guard case .string(let subject)? = object["sub"], !subject.isEmpty else {
            throw TokenError(.claims, "sub: expected a non-empty string naming the user")
        }
        if let problem = Self.controlCharacterProblem(in: subject) { throw TokenError(.claims, "sub: \(problem)") }
        guard let expiresAt = try Self.time("exp", in: object, meaning: "the expiry") else {
            throw TokenError(.claims, "exp: expected the expiry in whole seconds since 1970 (required)")
        }
        var scopes: [String] = []
        switch object["scopes"] {
        case nil: break
        case .array(let values)?:
            scopes.reserveCapacity(values.count)
            for (index, value) in values.enumerated() {
                guard case .string(let scope) = value, !scope.isEmpty else {
                    throw TokenError(.claims, "scopes/\(index): expected a non-empty string")
                }
                if let problem = Self.controlCharacterProblem(in: scope) { throw TokenError(.claims, "scopes/\(index): \(problem)") }
                scopes.append(scope)
            }
        case let other?: throw TokenError(.claims, "scopes: expected an array of strings, got \(other.typeName)")
        }
        let issuedAt = try Self.time("iat", in: object, meaning: "the time of issue")
        let notBefore = try Self.time("nbf", in: object, meaning: "the time the token is valid from")
        self.init(subject: subject, scopes: scopes, expiresAt: expiresAt, issuedAt: issuedAt, notBefore: notBefore)
    }

    /// The time claim `name`, nil when absent: a JSON number of whole seconds in ``timeRange``,
    /// checked as the Double it was read as, before any conversion.
    private static func time(_ name: String, in object: JSONObject, meaning: String) throws(TokenError) -> Int64? {
        guard let value = object[name] else { return nil }
        guard case .number(let seconds) = value, seconds.isFinite, seconds == seconds.rounded(),
              Double(timeRange.lowerBound) <= seconds, seconds <= Double(timeRange.upperBound)
        else {
            let got = if case .number = value { JSONWriter.write(value) } else { value.typeName }
            throw TokenError(.claims, "\(name): expected \(meaning) in whole seconds since 1970, "
                + "from \(timeRange.lowerBound) to \(timeRange.upperBound) (9999-12-31T23:59:59Z), got \(got)")
        }
        return Int64(seconds)
    }
}
