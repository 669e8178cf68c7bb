import Synchronization

/// A value shared between a test (or benchmark) and the threads it drives, behind the standard
/// library's `Mutex`, in a class so that closures and tasks can share it by reference.
///
/// ```swift
/// let seen = Locked<[String]>([])
/// server.onRequest { path in seen.withLock { $0.append(path) } }
/// #expect(seen.value == ["/a"])
/// ```
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    public func withLock<T: Sendable, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try mutex.withLock { (value: inout Value) throws(E) -> T in try body(&value) }
    }

    /// The value now (a copy).
    public var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }

    public func read<T: Sendable>(_ body: (Value) -> T) -> T { withLock { body($0) } }
}
