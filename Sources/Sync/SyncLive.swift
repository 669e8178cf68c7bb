import Bridge
import CurlTransport
import JSON
import Persistence
import SyncClient
import SyncProtocol

/// One turn of `sync.live`: push what is waiting, then hold a pull open on the server
/// (`waitMs`) while watching the database for local writes to synced tables; whichever comes
/// first — remote ops, or a local write — a sync run follows (pull, execute, push) and the turn
/// answers with its totals. When the wait runs out with nothing, it answers with zeros.
///
/// `Hybrid.subscribe` calls it again and again; each turn starts from the database's state, so a
/// turn cut short (the subscription stopped, the app quit) loses nothing.
struct SyncLive {
    let replica: SyncReplica
    let connection: SyncReplica.Connection
    let client: SyncServerClient
    let waitMs: Int
    /// A sync run of this database (pulling first, or only pushing), serialized with every other
    /// run of it; given the held pull's answer, it starts from that page rather than asking again.
    let run: @Sendable (_ pulls: Bool, _ prefetched: SyncRun.Prefetched?) async throws(BridgeError) -> SyncRun.Totals

    private enum Wake: Sendable {
        /// The held pull answered.
        case remote(SyncServerClient.Answer)
        /// Local writes to synced tables committed (none: the watch timed out).
        case local(WatchBatch)
    }

    func turn() async throws(BridgeError) -> SyncRun.Totals {
        let tables = replica.syncedTables
        // Taken before looking for unsent writes: one committed after this wakes the watch below.
        var since = replica.center.changes.lastSeq
        let pulls = replica.pulls
        if try bridged({ try replica.unsentCount() }) > 0 {
            let totals = try await run(pulls, nil)
            if totals.pushed > 0 || totals.pulled > 0 { return totals }
        }
        let cursor = try bridged { try replica.cursor() }
        do {
            return try await withThrowingTaskGroup(of: Wake.self) { group in
                if pulls {
                    group.addTask {
                        .remote(try await client.get(SyncRun.pullPath(deviceId: connection.deviceId, after: cursor, waitMs: waitMs)))
                    }
                }
                // Outlives the held pull, which decides when the turn ends with nothing; a
                // database that only pushes (one-way tables) ends it here.
                let localTimeoutMs = pulls ? waitMs + 5_000 : waitMs
                group.addTask { [since] in .local(await replica.center.changes.watch(since: since, tables: tables, timeoutMs: localTimeoutMs)) }
                while let wake = try await group.next() {
                    switch wake {
                    case .remote(let answer):
                        group.cancelAll()
                        // Read once here, and handed to the run; one that does not read is the run's to report.
                        let page = answer.status == 200 ? try? answer.decoded("pull page", PullPage.decode) : nil
                        if page?.ops.isEmpty == true { return SyncRun.Totals() }
                        // Ops (or a refusal a run reports, such as 410 compacted): a run takes them
                        // from here.
                        return try await run(true, SyncRun.Prefetched(cursor: cursor, answer: answer, page: page))
                    case .local(let batch):
                        if batch.events.isEmpty {
                            if pulls { continue }
                            return SyncRun.Totals()
                        }
                        // Writes of a run (ours, or sync.run's) executing pulled ops leave nothing unsent.
                        // Only a push: remote ops, if any, wake the next turn's held pull at once,
                        // and a device writing fast makes one request per write, not two.
                        if try bridged({ try replica.unsentCount() }) > 0 {
                            group.cancelAll()
                            return try await run(false, nil)
                        }
                        since = batch.seq
                        group.addTask { [since] in .local(await replica.center.changes.watch(since: since, tables: tables, timeoutMs: localTimeoutMs)) }
                    }
                }
                return SyncRun.Totals()
            }
        } catch let error as BridgeError {
            throw error
        } catch {
            throw BridgeError.failed(reason: "server", "live pull from \(connection.server) failed: \(error)")
        }
    }
}
