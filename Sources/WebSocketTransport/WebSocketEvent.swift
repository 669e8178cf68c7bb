/// What arrives on a WebSocket, in order: whole messages, then once its end.
public enum WebSocketEvent: Sendable, Equatable {
    /// A text message, its UTF-8 checked (a message that is not UTF-8 closes the connection
    /// with 1007, as RFC 6455 §8.1 says).
    case text(String)
    case binary([UInt8])
    /// The connection's end: the close frame's code and reason, or 1005 when the frame carried no
    /// code, 1006 (and `wasClean` false) when the connection ended without a closing handshake.
    case closed(code: Int, reason: String, wasClean: Bool)
}

/// Why a WebSocket could not be opened or used.
public struct WebSocketError: Error, Sendable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case badURL = "bad_url"
        case connect
        case dns
        case tls
        case timeout
        /// The server did not answer the opening handshake as RFC 6455 requires (a status other
        /// than 101, a wrong Sec-WebSocket-Accept, a subprotocol it was not offered).
        case handshake
        /// A send on a connection that is closing or closed.
        case closed
    }

    public let reason: Reason
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}
