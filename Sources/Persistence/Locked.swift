import Foundation

/// A value behind a lock, for state shared between the writer, readers and watchers.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
