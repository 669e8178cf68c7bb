/// Where the sync server keeps everything it must not forget: devices, the op log, the materialized
/// state and the per-device packet record.
///
/// A protocol so that a PostgreSQL store can stand beside ``SQLiteSyncStore`` later. Whatever the
/// backend, each packet is applied in one transaction, ops are skipped by opId, state follows
/// ``OperationFold``, and a held packet is applied (in its own transaction) as soon as the packet it
/// depends on is, or rejected when that one is.
public protocol SyncStore: Sendable {
    /// Records a new device with the SHA-256 (hex) of its token; returns its id.
    func registerDevice(name: String?, tokenDigest: String, now: Double) async throws -> String

    /// The device whose token has this digest, or nil.
    func device(tokenDigest: String) async throws -> String?

    /// Applies, holds or rejects `packet` (see ``PushOutcome``); a packet already recorded gets the
    /// answer it got the first time. Applying it applies, in order, the held packets it unblocks.
    func push(_ packet: PushPacket, now: Double) async throws -> PushOutcome

    /// Rejects held packets whose dependency has not arrived `holdSeconds` after they did, then
    /// settles every held packet whose dependency is no longer held (apply or reject).
    func sweep(now: Double, holdSeconds: Double) async throws

    /// The record of one packet of a device, or nil when the server never saw it.
    func packet(deviceId: String, packetId: String) async throws -> PacketRecord?

    /// Up to `limit` logged ops with seq > `after`, in seq order.
    func pull(after: Int, limit: Int) async throws -> PullPage

    /// The materialized state and the log position it reflects, read in one transaction.
    func snapshot() async throws -> SyncSnapshot
}
