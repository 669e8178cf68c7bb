import Synchronization

/// The time a request spent waiting on purpose (a long poll held until something happens), which
/// its latency leaves out: a held pull's minute is no slow answer. The route adds to it; the
/// ``RequestMetricsMiddleware`` takes it off the time it measured.
///
/// A reference, one per request: the context a route gets is a copy of the middleware's, and
/// this is how the route's figure gets back out.
public final class RequestWaits: Sendable {
    private let waited = Mutex<Duration>(.zero)

    public init() {}

    /// Adds `duration` to the time waited.
    public func add(_ duration: Duration) {
        waited.withLock { $0 += duration }
    }

    /// The time waited so far.
    public var total: Duration { waited.withLock { $0 } }
}
