import JSON

/// What the server answered a push (`POST /v1/push`) when it took the packet: applied (200), held
/// until the packet it depends on arrives (202), or rejected for good (409). A refusal of the
/// request itself (400, 401, 403, 413, 429, 500) is a ``SyncServerError`` instead.
///
/// Wire forms: `{"applied": [opId], "duplicates": [opId], "cursor"}`; `{"held": true, "packetId",
/// "waitingFor"}`; ``PushRejection``'s.
public enum PushAnswer: Sendable, Equatable {
    /// Applied now, or earlier (a re-push gets the first answer again); `cursor` is the log's last
    /// seq once it was.
    case applied(applied: [String], duplicates: [String], cursor: Int)
    case held(packetId: String, waitingFor: String)
    case rejected(PushRejection)

    public var status: Int {
        switch self {
        case .applied: 200
        case .held: 202
        case .rejected: 409
        }
    }

    public var json: JSONValue {
        switch self {
        case .applied(let applied, let duplicates, let cursor):
            ["applied": .array(applied.map(JSONValue.string)), "duplicates": .array(duplicates.map(JSONValue.string)),
             "cursor": .number(Double(cursor))]
        case .held(let packetId, let dependency):
            ["held": true, "packetId": .string(packetId), "waitingFor": .string(dependency)]
        case .rejected(let rejection):
            rejectionJSON(rejection)
        }
    }

    private func rejectionJSON(_ rejection: PushRejection) -> JSONValue {
        var answer: JSONObject = ["rejected": true, "packetId": .string(rejection.packetId), "reason": .string(rejection.reason),
                                  "error": .object(rejection.error.detail)]
        if let opId = rejection.opId { answer["opId"] = .string(opId) }
        return .object(answer)
    }

    /// Reads the answer to a push of `status`; nil for a status that is no push answer (a 409
    /// without `rejected` is a refusal too): read it as a ``SyncServerError``.
    public static func decode(status: Int, body: JSONValue) throws(SyncWireError) -> PushAnswer? {
        switch status {
        case 200:
            let fields = try FieldReader(body, at: "")
            return .applied(applied: try fields.texts("applied"), duplicates: try fields.texts("duplicates"), cursor: try fields.integer("cursor"))
        case 202:
            let fields = try FieldReader(body, at: "")
            guard try fields.bool("held") else { throw SyncWireError.invalid(fields.path("held"), "expected true") }
            return .held(packetId: try fields.text("packetId"), waitingFor: try fields.text("waitingFor"))
        case 409 where body["rejected"] != nil:
            let fields = try FieldReader(body, at: "")
            guard try fields.bool("rejected") else { throw SyncWireError.invalid(fields.path("rejected"), "expected true") }
            let rejection = PushRejection(packetId: try fields.text("packetId"), reason: try fields.text("reason"), opId: try fields.optionalText("opId"))
            _ = try SyncServerError.decodeDetail(fields.object["error"], at: fields.path("error"))
            return .rejected(rejection)
        default:
            return nil
        }
    }
}
