import SyncProtocol
import SystemIO

/// The server's durable record of one pushed packet, kept for good (there is no 100-packet window):
/// what the device reads of it (``record``, SyncProtocol's ``PacketRecord``) and what only the
/// server keeps (whose it is, the op refused for its scope, when it arrived and settled).
public struct StoredPacket: Sendable, Equatable {
    public var deviceId: String
    public var packetId: String
    /// The device's packet count when this one first arrived: monotonic per device.
    public var seq: Int
    public var state: PacketState
    public var dependencyIdentifier: String?
    /// Why it was rejected.
    public var reason: String?
    /// For a packet refused for one op's scope: that op.
    public var refusedOpId: String?
    /// For an applied packet: the opIds it applied, the ones it skipped as already logged, and the
    /// log's last seq after it.
    public var applied: [String]?
    public var duplicates: [String]?
    public var cursor: Int?
    public var receivedAt: WallTime
    public var settledAt: WallTime?

    public init(deviceId: String, packetId: String, seq: Int, state: PacketState, dependencyIdentifier: String?,
                reason: String? = nil, refusedOpId: String? = nil, applied: [String]? = nil, duplicates: [String]? = nil, cursor: Int? = nil,
                receivedAt: WallTime, settledAt: WallTime? = nil) {
        self.deviceId = deviceId
        self.packetId = packetId
        self.seq = seq
        self.state = state
        self.dependencyIdentifier = dependencyIdentifier
        self.reason = reason
        self.refusedOpId = refusedOpId
        self.applied = applied
        self.duplicates = duplicates
        self.cursor = cursor
        self.receivedAt = receivedAt
        self.settledAt = settledAt
    }

    /// What `GET /v1/packets/{packetId}` answers.
    public var record: PacketRecord {
        PacketRecord(packetId: packetId, seq: seq, state: state, dependencyIdentifier: dependencyIdentifier, reason: reason,
                     applied: applied, duplicates: duplicates, cursor: cursor)
    }
}

extension StoredPacket {
    /// The answer a re-push of this packet gets: the one it got the first time, or what became of it since.
    var outcome: PushOutcome {
        switch state {
        case .applied: .applied(applied: applied ?? [], duplicates: duplicates ?? [], cursor: cursor ?? 0, replayed: true)
        case .held: .held(waitingFor: dependencyIdentifier ?? "")
        case .rejected: .rejected(reason: reason ?? "rejected", opId: refusedOpId)
        }
    }
}
