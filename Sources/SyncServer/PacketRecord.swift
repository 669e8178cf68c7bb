import JSON

/// The server's durable record of one pushed packet, kept for good (there is no 100-packet window),
/// so a client can learn what became of a held packet however long it was away.
///
/// Wire form (`GET /v1/packets/{packetId}`): `{"packetId", "state", "seq", "dependencyIdentifier",
/// "reason"?, "applied"?, "duplicates"?, "cursor"?}`.
public struct PacketRecord: Sendable, Equatable {
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
    /// Seconds since 1970.
    public var receivedAt: Double
    public var settledAt: Double?

    public init(deviceId: String, packetId: String, seq: Int, state: PacketState, dependencyIdentifier: String?,
                reason: String? = nil, refusedOpId: String? = nil, applied: [String]? = nil, duplicates: [String]? = nil, cursor: Int? = nil,
                receivedAt: Double, settledAt: Double? = nil) {
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

    public var json: JSONValue {
        var object: JSONObject = [
            "packetId": .string(packetId), "state": .string(state.rawValue), "seq": .number(Double(seq)),
            "dependencyIdentifier": dependencyIdentifier.map(JSONValue.string) ?? .null,
        ]
        if let reason { object["reason"] = .string(reason) }
        if let applied { object["applied"] = .array(applied.map(JSONValue.string)) }
        if let duplicates { object["duplicates"] = .array(duplicates.map(JSONValue.string)) }
        if let cursor { object["cursor"] = .number(Double(cursor)) }
        return .object(object)
    }
}

extension PacketRecord {
    /// The answer a re-push of this packet gets: the one it got the first time, or what became of it since.
    var outcome: PushOutcome {
        switch state {
        case .applied: .applied(applied: applied ?? [], duplicates: duplicates ?? [], cursor: cursor ?? 0, replayed: true)
        case .held: .held(waitingFor: dependencyIdentifier ?? "")
        case .rejected: .rejected(reason: reason ?? "rejected", opId: refusedOpId)
        }
    }
}
