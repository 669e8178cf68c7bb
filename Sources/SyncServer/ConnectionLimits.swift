/// How long a connection may keep the server waiting, and how many it may have open: what stops a
/// peer from holding the server's file descriptors with connections that send nothing, half a
/// request head, or a body one byte a minute (`--head-timeout`, `--body-timeout`, `--idle-timeout`,
/// `--max-connections`, `--max-connections-per-address`).
///
/// Past a bound, the oldest idle connection (of that address, or of all) is closed to make room; a
/// connection with a request in progress (a held pull among them) is never closed for room, so a
/// new one is refused when none is idle. Held pulls have their own bound, per user
/// (``SyncServerConfiguration/maxHeldPullsPerUser``).
///
/// ```swift
/// var limits = ConnectionLimits()
/// limits.headTimeout = .seconds(5)  // for a new connection's first request head
/// limits.maxConnectionsPerAddress = 64
/// ```
public struct ConnectionLimits: Sendable, Equatable {
    /// How long a new connection has to send its first request head, whole.
    public var headTimeout: Duration = .seconds(10)
    /// How long a request body may go without a byte arriving.
    public var bodyTimeout: Duration = .seconds(30)
    /// How long a keep-alive connection may wait, after a response, for its next request head, whole.
    public var idleTimeout: Duration = .seconds(60)
    /// Connections open at once. A server keeps it below its open-file limit (``capped(openFiles:)``),
    /// so that accepting never fails for want of a descriptor.
    public var maxConnections = 10_000
    /// Connections open at once from one IP address: about a hundred devices, each with a pull
    /// held and a push, behind one NAT. Behind a proxy every connection has the proxy's address:
    /// raise it to ``maxConnections`` there and bound each client at the proxy. Its memory
    /// follows the connections a server has had open at once: after 20,000 idle connections, a
    /// bound of 1,000 left the server 12-19% above its idle size a minute after they closed, 256
    /// left it within 8% (BENCHMARKS.md, "Idle connections").
    public var maxConnectionsPerAddress = 256

    public init() {}

    /// Descriptors kept for everything but connections: the database's, the log's, the listener's.
    static let reservedDescriptors = 64

    /// These limits with ``maxConnections`` no higher than `openFiles` allows, less
    /// ``reservedDescriptors`` (nil: no limit known).
    public func capped(openFiles: Int?) -> ConnectionLimits {
        guard let openFiles else { return self }
        var capped = self
        capped.maxConnections = max(1, min(maxConnections, openFiles - Self.reservedDescriptors))
        capped.maxConnectionsPerAddress = min(maxConnectionsPerAddress, capped.maxConnections)
        return capped
    }
}
