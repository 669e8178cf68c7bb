import JSON

/// What became of one pushed packet, as `GET /v1/packets/{packetId}` answers it: the server keeps
/// it for good, so a client can learn what became of a held packet however long it was away.
///
/// Wire form: `{"packetId", "state", "seq", "dependencyIdentifier", "reason"?, "applied"?,
/// "duplicates"?, "cursor"?}`.
public struct PacketRecord: Sendable, Equatable {
    public var packetId: String
    /// The device's packet count when this one first arrived: monotonic per device.
    public var seq: Int
    public var state: PacketState
    public var dependencyIdentifier: String?
    /// Why it was rejected.
    public var reason: String?
    /// For an applied packet: the opIds it applied, the ones it skipped as already logged, and the
    /// log's last seq after it.
    public var applied: [String]?
    public var duplicates: [String]?
    public var cursor: Int?

    public init(packetId: String, seq: Int, state: PacketState, dependencyIdentifier: String?, reason: String? = nil,
                applied: [String]? = nil, duplicates: [String]? = nil, cursor: Int? = nil) {
        self.packetId = packetId
        self.seq = seq
        self.state = state
        self.dependencyIdentifier = dependencyIdentifier
        self.reason = reason
        self.applied = applied
        self.duplicates = duplicates
        self.cursor = cursor
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

    /// Reads a packet's record, refusing it at the first field at fault.
    public static func decode(_ body: JSONValue) throws(SyncWireError) -> PacketRecord {
        let fields = try FieldReader(body, at: "")
        let stateName = try fields.text("state")
        guard let state = PacketState(rawValue: stateName) else {
            let expected = PacketState.allCases.map(\.rawValue).joined(separator: ", ")
            throw SyncWireError.invalid(fields.path("state"), "unknown state \"\(stateName)\", expected one of \(expected)")
        }
        guard fields.object["dependencyIdentifier"] != nil else {
            throw SyncWireError.field(fields.path("dependencyIdentifier"), expected: "string or null", got: nil)
        }
        return PacketRecord(packetId: try fields.text("packetId"), seq: try fields.integer("seq"), state: state,
                            dependencyIdentifier: try fields.optionalText("dependencyIdentifier"), reason: try fields.optionalText("reason"),
                            applied: try fields.optionalTexts("applied"), duplicates: try fields.optionalTexts("duplicates"),
                            cursor: fields.object["cursor"] == nil ? nil : try fields.integer("cursor"))
    }
}
