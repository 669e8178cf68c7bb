import HTTPServing
import SyncProtocol
import SystemIO

/// Where the sync server keeps everything it must not forget: devices, the op log, the materialized
/// state and the per-device packet record.
///
/// Two stores stand behind it: ``SQLiteSyncStore`` (one server, one file) and ``PostgresSyncStore``
/// (any number of servers over one database), both running one algorithm (``SyncStoreBackend``),
/// each in its own SQL. Whatever the backend, each packet is applied in one
/// transaction, an op its device logged before is skipped by opId, state follows
/// ``OperationFold``, a held packet is applied (in its own transaction) as soon as the packet it
/// depends on is, or rejected when that one is, and no op touches a row outside its device's
/// scopes. Users, scopes, tables and opIds are compared as the database compares them, byte for
/// byte (``ByteString``), never with Swift's `String ==`.
public protocol SyncStore: Sendable {
    /// Records a new device of `user` with the SHA-256 (hex) of its device token and the scopes it
    /// was granted (nil: every scope); returns its id.
    func registerDevice(name: String?, tokenDigest: String, user: String, scopes: [String]?, now: WallTime) async throws -> String

    /// How many devices `user` has registered (``SyncServerConfiguration/maxDevicesPerUser``).
    func deviceCount(user: String) async throws -> Int

    /// The device whose device token has this digest (an insecure server's devices), or nil.
    func device(tokenDigest: String) async throws -> DeviceIdentity?

    /// The device `deviceId` as a token of `user` granting `scopes` speaks for it: refused
    /// (`forbidden`) when the device is unknown or another user's. Records the scopes, so that held
    /// packets settle under the latest grant.
    func device(id deviceId: String, user: String, scopes: [String], now: WallTime) async throws -> DeviceIdentity

    /// Applies, holds or rejects `packet` (see ``PushOutcome``); a packet already recorded gets the
    /// answer it got the first time. Applying it applies, in order, the held packets it unblocks.
    /// An op outside the device's scopes refuses the packet whole (`forbidden`, reason `scope`).
    func push(_ packet: PushPacket, now: WallTime) async throws -> PushOutcome

    /// Rejects held packets still held `hold` after they arrived whose dependency never
    /// arrived, or is itself held past the hold with no end in sight (``HeldPacketExpiry``), then
    /// settles every held packet whose dependency is no longer held (apply or reject).
    func sweep(now: WallTime, hold: Duration) async throws

    /// The record of one packet of a device, or nil when the server never saw it.
    func packet(deviceId: String, packetId: String) async throws -> StoredPacket?

    /// Up to `limit` logged ops with seq > `after` that `device` may see, in seq order, and records
    /// `after` as what the device holds (for compaction). Refused (`compacted`) when ops after
    /// `after` have been compacted away.
    func pull(for device: DeviceIdentity, after: Int, limit: Int, now: WallTime) async throws -> PullPage

    /// Up to `limit` log entries with seq > `after`, whoever may see them, each with its log keys,
    /// and the compaction mark, in one snapshot: what a server keeps of the log's newest entries in
    /// memory (``RecentLog``) to answer held pulls without reading the store once per device.
    func logTail(after: Int, limit: Int) async throws -> LogTail

    /// Records what devices have pulled (`cursor`: the greatest `after` each asked from) and when, as
    /// ``pull(for:after:limit:now:)`` does for one device, for the pulls answered from memory: in
    /// one transaction, every second, rather than one write per pull. A cursor never moves back.
    func recordPulls(_ pulls: [String: PulledCursor]) async throws

    /// The materialized state `device` may see, or one part of it, from `after` on, at most `limit`
    /// rows (all when nil), read in one transaction.
    func snapshot(for device: DeviceIdentity, part: SnapshotPart, after: RowPosition?, limit: Int?) async throws -> SyncSnapshot

    /// Folds away the log entries that every device seen in the last `retain` has pulled and
    /// that are older than `retain`; the state keeps their effect.
    func compact(now: WallTime, retain: Duration) async throws -> Compaction

    /// Calls `onCommit` whenever the log may have grown (a commit that logged ops, on this server
    /// or on any other sharing the store), with what it knows of the commit (``CommitNews``: its
    /// keys, and its entries when the store carries them), in commit order, until the calling task
    /// is cancelled, when it throws `CancellationError`; any other error means the news stopped
    /// coming (the caller watches again). Held long-polls (`waitMs`) wake on it.
    func watchCommits(_ onCommit: @escaping @Sendable (CommitNews) -> Void) async throws

    /// What stands behind it, as `GET /v1/health` names it: `sqlite` or `postgres`.
    var kind: String { get }

    /// One trivial round trip (`SELECT 1`), which health checks time; throws when the store cannot
    /// answer. On PostgreSQL it waits for a pooled connection first, with no time limit of its own.
    func ping() async throws

    /// Held packets and the op log's extent now, read in one statement (for the metrics).
    func figures() async throws -> StoreFigures

    /// Lets go of connections and background work; the store is not used again.
    func close() async
}

extension SyncStore {
    public func close() async {}

    /// The whole materialized state, every partition and scope: what an operator (or a test that
    /// checks convergence) sees.
    public func snapshot() async throws -> SyncSnapshot {
        try await snapshot(for: DeviceIdentity(deviceId: "", user: "", scopes: nil), part: .all, after: nil, limit: nil)
    }
}

/// What a device has pulled, for ``SyncStore/recordPulls(_:)``.
public struct PulledCursor: Sendable, Equatable {
    /// The greatest `after` the device pulled from.
    public var cursor: Int
    public var at: WallTime
}
