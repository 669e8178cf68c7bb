import HTTPServing
import Logging
import SystemIO
import ServiceLifecycle

/// Rejects held packets whose dependency is overdue, on a timer, so a packet nobody asks about is
/// still settled within about a second of its deadline. Pushes sweep too; this covers the quiet
/// times. It compacts the op log too, every ``SyncServerConfiguration/compactionInterval``, after
/// writing the cursors of the pulls answered from memory (``PulledCursors``), which compaction
/// reads; and writes them once more at the server's shutdown.
struct HeldPacketSweeper: Service {
    let store: any SyncStore
    let cursors: PulledCursors
    let hold: Duration
    let interval: Duration
    let retain: Duration
    let compactionInterval: Duration
    /// Its sleeps and deadlines run on it; the stores stamp its wall time.
    let clock: any HostClock
    let metrics: SyncMetrics
    let logger: Logger

    /// A store call that returns when the server shuts down, or after a minute, whatever the
    /// store does: postgres-nio waits for a pooled connection with no limit while the database
    /// refuses connections (dropped, or down), and a sweep waiting so kept the server from stopping.
    func bounded<Result: Sendable>(_ what: String, within timeout: Duration = .seconds(60),
                                   _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try await StoreHealth.answer(within: timeout, on: clock, what: what, body)
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var lastCompaction: ContinuousClock.Instant?
            // A store call cut short by the shutdown is no failure: the loop ends with it.
            while !Task.isCancelled {
                let now = clock.wallTime
                do {
                    try await bounded("writing the pulls' cursors") { try await cursors.write(to: store) }
                } catch where !Task.isCancelled {
                    logger.error("recording the cursors of pulls failed: \(PostgresSyncStore.describe(error))")
                }
                do {
                    try await bounded("the sweep") { try await store.sweep(now: now, hold: hold) }
                } catch where !Task.isCancelled {
                    logger.error("sweep of held packets failed: \(PostgresSyncStore.describe(error))")
                }
                if lastCompaction.map({ clock.now - $0 >= compactionInterval }) ?? true {
                    lastCompaction = clock.now
                    do {
                        metrics.compacted(try await bounded("the compaction") { try await store.compact(now: now, retain: retain) })
                    } catch where !Task.isCancelled {
                        logger.error("compaction of the op log failed: \(PostgresSyncStore.describe(error))")
                    }
                }
                try await clock.sleep(for: interval)
            }
        }
        do {
            // Outside the cancelled task, so that it runs; for a few seconds at most.
            try await Task { [store, cursors, self] in
                try await bounded("writing the pulls' cursors", within: .seconds(5)) { try await cursors.write(to: store) }
            }.value
        } catch {
            logger.error("recording the cursors of pulls at shutdown failed: \(PostgresSyncStore.describe(error))")
        }
    }
}
