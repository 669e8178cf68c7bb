import Synchronization

/// A value behind the standard library's `Mutex`, in a class so that threads, tasks and the
/// closures they register can share it by reference: the one lock type of every module.
///
/// ```swift
/// let seen = Locked<[String]>([])
/// server.onRequest { path in seen.withLock { $0.append(path) } }
/// #expect(seen.value == ["/a"])
/// ```
public final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: sending Value) { mutex = Mutex(value) }

    public func withLock<T, E: Error>(_ body: (inout sending Value) throws(E) -> sending T) throws(E) -> sending T {
        try mutex.withLock(body)
    }
}

extension Locked where Value: Sendable {
    /// The value now (a copy).
    public var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }

    public func read<T: Sendable>(_ body: (Value) -> T) -> T { withLock { body($0) } }
}
