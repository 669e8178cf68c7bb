/// What the proxy did with one request.
public enum FaultKind: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Forwarded once, the response returned whole.
    case pass
    /// The client connection closed without forwarding: the request never reached the server.
    case drop
    /// Forwarded and answered by the server, then the client connection closed without a response:
    /// the server applied it but the client never heard.
    case dropResponse
    /// Forwarded twice; the client gets the second response.
    case duplicate
    /// Forwarded after a seeded pause.
    case delay
    /// Held until the next request has been forwarded (or for at most `FaultPlan.holdMs`), then
    /// forwarded.
    case reorder
    /// Forwarded, then only the first half of the response bytes reach the client.
    case cut

    public var description: String { rawValue }
}
