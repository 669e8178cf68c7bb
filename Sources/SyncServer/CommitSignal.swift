import Synchronization

/// In-process news that the log grew, for a store whose writers all live in this process
/// (``SQLiteSyncStore``): the store announces each commit that logged ops, and every watcher
/// registered through ``watch(_:)`` hears of it.
final class CommitSignal: Sendable {
    private struct Watchers {
        var next = 0
        var all: [Int: @Sendable (Set<String>?) -> Void] = [:]
    }

    private let watchers = Mutex(Watchers())

    /// Calls every watcher with the log keys the commit may have filed under (nil: any); never
    /// blocks on them (each only wakes held pulls).
    func announce(keys: [String]?) {
        let keys = keys.map(Set.init)
        for watcher in watchers.withLock({ Array($0.all.values) }) { watcher(keys) }
    }

    /// Calls `onCommit` for each announcement until the calling task is cancelled; throws
    /// `CancellationError` then, as ``SyncStore/watchCommits(_:)`` promises.
    func watch(_ onCommit: @escaping @Sendable (Set<String>?) -> Void) async throws {
        let id = watchers.withLock { watchers in
            watchers.next += 1
            watchers.all[watchers.next] = onCommit
            return watchers.next
        }
        defer { _ = watchers.withLock { $0.all.removeValue(forKey: id) } }
        // Waits for the cancellation, holding no thread: iterating a stream that never yields
        // ends when the task is cancelled.
        let (cancelled, continuation) = AsyncStream<Never>.makeStream()
        for await _ in cancelled {}
        withExtendedLifetime(continuation) {}
        throw CancellationError()
    }
}
