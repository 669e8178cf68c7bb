import Foundation

/// Hits per route name, read by tests that count what reached the server.
final class HitCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    @discardableResult
    func add(_ name: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        counts[name, default: 0] += 1
        return counts[name]!
    }

    subscript(name: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[name] ?? 0
    }
}
