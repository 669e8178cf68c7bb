import Logging
import ServiceLifecycle

/// Wakes held pulls whenever the store says the log may have grown (``SyncStore/watchCommits(_:)``:
/// in-process for SQLite, LISTEN/NOTIFY for PostgreSQL), through ``RecentLog``, which takes the
/// new entries first (from the news, or read); watching again after a second when the
/// news stops (a lost connection); and at the server's graceful shutdown answers every held pull
/// before the HTTP server drains its connections, and waits for the read of the log under way.
///
/// It is the last service of the group, so it is the first one told to shut down: the
/// application's drain, which waits for requests in flight, comes after held pulls have answered.
struct CommitWatcher: Service {
    let store: any SyncStore
    let held: HeldPulls
    /// Reads each commit's entries, then wakes the held pulls that read them.
    let recent: RecentLog
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            // The log as it stands, before any news: held pulls answer from memory from now on.
            recent.heard(.anywhere)
            while !Task.isCancelled {
                do {
                    try await store.watchCommits { news in recent.heard(news) }
                } catch where !Task.isCancelled && !(error is CancellationError) {
                    logger.error("watching the sync log for commits failed, held pulls wait out their waitMs meanwhile: \(PostgresSyncStore.describe(error))")
                }
                // Whatever was missed while no one watched: read it, and held pulls look again.
                recent.heard(.anywhere)
                try await Task.sleep(for: .seconds(1))
            }
        }
        held.close()
        await recent.stop()
    }
}
