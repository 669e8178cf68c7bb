import Foundation

/// Runs blocking socket and process work on a thread of its own, off the small cooperative pool
/// that the tests (and the server's awaits) share.
enum Blocking {
    static func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Result { () throws(E) -> T in try body() }) }
        }
        return try result.get()
    }
}
