/// Why a token was refused; the server answers 401 with ``reason`` and ``message``.
public struct TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        /// No token where one is required.
        case missing
        /// Not three base64url parts, or a part that is not JSON.
        case malformed
        /// An algorithm the server has no key for, `none` included.
        case algorithm
        /// The signature does not verify with the server's key.
        case signature
        /// `exp` has passed.
        case expired
        /// A required claim is missing or of the wrong type.
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
