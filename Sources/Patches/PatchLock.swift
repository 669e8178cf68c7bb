import Glibc

/// A mutex. The loader holds two: one for its state (short sections, taken on the JS thread
/// too) and one that makes applies and rollbacks run one at a time (held across a swap).
final class PatchLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}
