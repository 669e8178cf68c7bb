import HostTesting
import SystemIO

/// Hits per route name, read by tests that count what reached the server.
final class HitCounter: Sendable {
    private let counts = Locked<[String: Int]>([:])

    @discardableResult
    func add(_ name: String) -> Int {
        counts.withLock { counts in
            counts[name, default: 0] += 1
            return counts[name]!
        }
    }

    subscript(name: String) -> Int { counts.read { $0[name] ?? 0 } }
}
