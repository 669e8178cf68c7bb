/// Why a token was refused; the server answers 401 with ``reason`` and ``message``.
public struct TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        /// No token where one is required.
        case missing
        /// Not three base64url parts, a part that is not JSON, or a header this verifier cannot
        /// honour: a `crit` (RFC 7515 §4.1.11) that is not a non-empty array of names, or that names
        /// any extension at all, since none is understood here.
        case malformed
        /// An algorithm the server has no key for, `none` included.
        case algorithm
        /// The signature does not verify with the server's key.
        case signature
        /// `exp` has passed.
        case expired
        /// `nbf` has not come yet.
        case notYetValid
        /// A required claim is missing; a claim is of the wrong type, or a time outside
        /// ``TokenClaims/timeRange``; a subject or scope is empty or holds a control character.
        case claims
        /// A key file that cannot be read or is not a key of the expected kind.
        case key
    }

    public var reason: Reason
    public var message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(reason.rawValue): \(message)" }
}
