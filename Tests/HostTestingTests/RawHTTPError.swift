/// How a raw exchange failed, in the terms a client like libcurl would report it.
enum RawHTTPError: Error, Equatable {
    /// Nothing listens on the port.
    case refused
    /// The connection closed before a single byte of response: curl's "Empty reply from server".
    case emptyReply
    /// The connection closed part way through the response: curl's "partial file".
    case truncated(received: Int)
    /// The response did not parse as HTTP/1.1.
    case malformed
}
