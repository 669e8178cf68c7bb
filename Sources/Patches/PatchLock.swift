import Synchronization

/// A lock that guards no value of its own: the loader holds two, one for its state (short
/// sections, taken on the JS thread too) and one that makes applies and rollbacks run one at a
/// time (held across a swap). The standard library's `Mutex` underneath.
final class PatchLock: Sendable {
    private let mutex = Mutex(())

    func withLock<T, E: Error>(_ body: () throws(E) -> sending T) throws(E) -> sending T {
        try mutex.withLock { _ throws(E) -> sending T in try body() }
    }
}
