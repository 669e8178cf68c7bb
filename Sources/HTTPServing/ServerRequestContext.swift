import Hummingbird
import NIOCore

/// A request context that carries the identity its authentication found (HummingbirdAuth's
/// shape): nil until ``AuthenticationMiddleware`` has run, and on routes without one.
public protocol AuthenticatedRequestContext: RequestContext {
    associatedtype Identity: Sendable
    var identity: Identity? { get set }
}

/// A request context that carries the time its request waited on purpose (``RequestWaits``).
public protocol WaitingRequestContext: RequestContext {
    var waits: RequestWaits { get }
}

/// The request context every server of the product uses, typed by who its callers are: the
/// connection the request came in on (so that a long poll learns its client has gone, and
/// failures are counted against the peer's address), the identity authentication found, and the
/// time the request waited.
///
/// ```swift
/// let router = Router(context: ServerRequestContext<DeviceCaller>.self)
/// ```
public struct ServerRequestContext<Identity: Sendable>: AuthenticatedRequestContext, WaitingRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let channel: any Channel
    public var identity: Identity?
    public let waits = RequestWaits()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The peer's IP address ("" when the socket has none, as a Unix socket's).
    public var address: String { channel.remoteAddress?.ipAddress ?? "" }
}
