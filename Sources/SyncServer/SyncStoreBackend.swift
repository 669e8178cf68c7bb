import SyncProtocol
import SystemIO

/// What one database does for the store algorithm, each in its own SQL: the algorithm itself (a
/// push, a sweep, settling held packets, below) and every decision in it (``PacketArrival``,
/// ``HeldPacket``, ``AppliedOps``, ``ScopedFold``, ``HeldPacketExpiry``, ``SnapshotRows``,
/// ``SnapshotPage``, ``PullPage/init(found:after:limit:for:)``) are written once, with every
/// message they refuse with, so that ``SQLiteSyncStore`` and ``PostgresSyncStore`` differ only in
/// their SQL and in how they keep writers apart.
///
/// **Keeping writers apart is a primitive.** Each writing step (``receive(_:now:)``,
/// ``settleNext(deviceId:now:)``, ``rejectOverdue(now:hold:)``, a compaction) is one
/// transaction that no other writer of the store runs beside: on SQLite the file's single writer
/// (GRDB's `DatabasePool.write`; every writer is in this process), on PostgreSQL the
/// transaction-scoped advisory lock ``PostgresSyncStore/writeLock``, which every instance takes
/// first and PostgreSQL releases only once the commit is visible. Seqs are handed out under it, so
/// commit order is seq order and a pull never passes an op that commits later.
///
/// **"Is anything held?" is read before the writer, and read again under it.** Almost every push
/// and sweep finds nothing held, and ``anyHeld(deviceId:)`` answers that from a read, without
/// queueing for the writer (PostgreSQL's store did so; SQLite's took the writer on every push just
/// to find nothing, and now reads first too). Skipping on a stale "no" loses nothing: a packet held
/// by a push that committed before ours is visible to a read that starts after our commit, and one
/// received after our commit saw its dependency applied and was not held. A stale "yes" costs one
/// writing step that reads again under the writer what is ready (``settleNext(deviceId:now:)``
/// selects it there), so what the step does never rests on the read outside.
///
/// The steps, not the statements inside them, are what the algorithm calls: SQLite's transaction
/// is a synchronous GRDB closure and PostgreSQL's an asynchronous one, so inside a step each store
/// runs its own statements in the same order, asking the decisions above at each turn.
protocol SyncStoreBackend: SyncStore {
    /// Records `packet` and applies it when it can (``PacketArrival``), in one writing
    /// transaction: the answer, and what the commit logged.
    func receive(_ packet: PushPacket, now: WallTime) async throws -> (outcome: PushOutcome, growth: LogGrowth)

    /// Whether a packet is held (of `deviceId`, or of any device), read outside the writer.
    func anyHeld(deviceId: String?) async throws -> Bool

    /// Settles, in one writing transaction, the first held packet (of `deviceId`, or of any device,
    /// in arrival order) whose dependency has settled (``HeldPacket``): nil when there is none,
    /// else what the commit logged.
    func settleNext(deviceId: String?, now: WallTime) async throws -> LogGrowth?

    /// Rejects, in one writing transaction, the held packets ``HeldPacketExpiry`` gives up on.
    func rejectOverdue(now: WallTime, hold: Duration) async throws

    /// Tells this process's held pulls of a commit that logged ops under `keys` (nil: any key), for
    /// a store whose commits do not say so themselves (SQLite's `CommitSignal`; PostgreSQL's
    /// NOTIFY leaves with the commit, so its store does nothing here).
    func announce(keys: [String]?)
}

extension SyncStoreBackend {
    /// ``SyncStore/push(_:now:)``: receives the packet, then settles what its being applied unblocks.
    func receiveAndSettle(_ packet: PushPacket, now: WallTime) async throws -> PushOutcome {
        let (outcome, growth) = try await receive(packet, now: now)
        if case .filed(let keys) = growth { announce(keys: keys) }
        if case .applied = outcome { try await settle(deviceId: packet.deviceId, now: now) }
        return outcome
    }

    /// ``SyncStore/sweep(now:hold:)``: every push sweeps, and almost always nothing is held.
    func sweepHeld(now: WallTime, hold: Duration) async throws {
        guard try await anyHeld(deviceId: nil) else { return }
        try await rejectOverdue(now: now, hold: hold)
        try await settle(deviceId: nil, now: now)
    }

    /// Applies or rejects, one writing transaction each and in arrival order, held packets (of one
    /// device, or all) whose dependency has settled, until none is left. Applying one can unblock
    /// the next, so a chain of any length unwinds here; any instance may finish what another
    /// started, and after a crash between a commit and this loop the next sweep finishes the job.
    func settle(deviceId: String?, now: WallTime) async throws {
        guard try await anyHeld(deviceId: deviceId) else { return }
        while let growth = try await settleNext(deviceId: deviceId, now: now) {
            if case .filed(let keys) = growth { announce(keys: keys) }
        }
    }
}
