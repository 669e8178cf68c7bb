import Glibc

/// A mutex with a condition variable: how other threads wake the JS thread.
// @unchecked: its only state is a pthread mutex and condition variable, thread-safe by design, in memory of their own (a class's stored property has no address Swift promises to keep): made in `init`, destroyed in `deinit`, used only through pthread calls.
final class LoopSignal: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits (the lock held) until signalled, or until the monotonic `deadline` in nanoseconds.
    func wait(until deadline: UInt64?) {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return
        }
        var spec = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_cond_timedwait(condition, mutex, &spec)
    }

    func broadcast() { pthread_cond_broadcast(condition) }
}
