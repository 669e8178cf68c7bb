import Synchronization

/// A value behind the standard library's `Mutex`, in a class so that the writer, readers and
/// watchers (and closures they register) can share one by reference.
final class Locked<Value>: @unchecked Sendable {
    private let mutex: Mutex<Value>

    init(_ value: sending Value) { mutex = Mutex(value) }

    func withLock<T, E: Error>(_ body: (inout sending Value) throws(E) -> sending T) throws(E) -> sending T {
        try mutex.withLock(body)
    }
}
