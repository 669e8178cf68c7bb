import Glibc

/// A thread of its own for a loop that blocks in the system (a poll, a sleep between looks),
/// started detached: nobody joins it, and it ends when its body returns. The body holds what it
/// captures until then, so an object whose loop runs there outlives the loop.
///
/// ```swift
/// DetachedThread.start { [self] in loop() }
/// ```
public enum DetachedThread {
    /// Starts `body` on a new detached thread; false when the system could not make one (then
    /// `body` has not run).
    @discardableResult
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box.toOpaque())
        guard result == 0 else {
            box.release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// Runs `body` on a new detached thread and returns its result: blocking work (a read to the
    /// end of a pipe, a wait on another thread) kept off Swift's few pool threads.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: body()) }
        }
    }

    private final class Body {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
