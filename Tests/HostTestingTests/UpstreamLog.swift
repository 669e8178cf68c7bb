import Synchronization

/// What the upstream server saw: the bodies of its POSTs in the order they arrived.
final class UpstreamLog: Sendable {
    private let bodies = Mutex<[String]>([])

    func record(_ body: String) { bodies.withLock { $0.append(body) } }

    var seen: [String] { bodies.withLock { $0 } }
    var hits: Int { bodies.withLock { $0.count } }
}
