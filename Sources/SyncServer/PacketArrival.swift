import SyncProtocol
import SystemIO

/// What becomes of a pushed packet as it arrives, decided without a database: each store, under its
/// writer, answers a re-push from the packet's record (``StoredPacket/outcome``), counts the packet
/// (its `seq`), reads its dependency's state, asks here, and writes what it is told.
///
/// ```swift
/// switch PacketArrival.of(packet, seq: seq, dependencyState: state, now: now) {
/// case .recorded(let record, let heldOps): // insert record (a held one with heldOps); answer record.outcome
/// case .apply: // apply the ops, then insert PacketArrival.applied(packet, seq: seq, ops: applied, now: now)
/// }
/// ```
enum PacketArrival: Equatable {
    /// Recorded without applying anything: held until its dependency settles (its ops kept, as
    /// stored text, to apply then), or rejected for good because its dependency was.
    case recorded(StoredPacket, heldOps: String?)
    /// No dependency, or an applied one: its ops apply now, in the same transaction.
    case apply

    /// `dependencyState` is the state of the packet's dependency as recorded, nil when the store has
    /// no record of it (read only when the packet names one).
    static func of(_ packet: PushPacket, seq: Int, dependencyState: PacketState?, now: WallTime) -> PacketArrival {
        guard let dependency = packet.dependencyIdentifier else { return .apply }
        switch dependencyState {
        case nil, .held?:
            return .recorded(StoredPacket(deviceId: packet.deviceId, packetId: packet.packetId, seq: seq, state: .held,
                                          dependencyIdentifier: dependency, receivedAt: now),
                             heldOps: StoredText.ops(packet.ops))
        case .rejected?:
            return .recorded(StoredPacket(deviceId: packet.deviceId, packetId: packet.packetId, seq: seq, state: .rejected,
                                          dependencyIdentifier: dependency, reason: PushRejection.dependencyRejected(dependency),
                                          receivedAt: now, settledAt: now),
                             heldOps: nil)
        case .applied?:
            return .apply
        }
    }

    /// The record of a packet whose ops applied as it arrived.
    static func applied(_ packet: PushPacket, seq: Int, ops: AppliedOps, now: WallTime) -> StoredPacket {
        StoredPacket(deviceId: packet.deviceId, packetId: packet.packetId, seq: seq, state: .applied,
                     dependencyIdentifier: packet.dependencyIdentifier, applied: ops.applied, duplicates: ops.duplicates,
                     cursor: ops.cursor, receivedAt: now, settledAt: now)
    }
}
