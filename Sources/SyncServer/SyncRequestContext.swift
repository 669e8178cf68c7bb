import Hummingbird
import NIOCore

/// What the sync server's routes know of a request beyond the request itself: the connection it
/// came in on, so that a held pull can learn its client has gone (``ConnectionTable/life(of:)``)
/// and failed authentications can be counted against the peer's address.
struct SyncRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The peer's IP address ("" when the socket has none, as a Unix socket's).
    var address: String { channel.remoteAddress?.ipAddress ?? "" }
}
