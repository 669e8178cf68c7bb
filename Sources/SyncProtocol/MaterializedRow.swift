import JSON

/// One row of the server's materialized state, keyed by (table, ``dataId``), stamped with the
/// (timestamp, opId) of the last op that changed it.
///
/// Wire form in a snapshot: `{"dataId", "data", "deleted", "timestamp", "opId"}`.
public struct MaterializedRow: Sendable, Equatable {
    public var dataId: String
    public var data: JSONObject
    /// A tombstone: the row was deleted; its data is kept as it was.
    public var deleted: Bool
    public var timestamp: Double
    public var opId: String

    public init(dataId: String, data: JSONObject, deleted: Bool, timestamp: Double, opId: String) {
        self.dataId = dataId
        self.data = data
        self.deleted = deleted
        self.timestamp = timestamp
        self.opId = opId
    }

    public var json: JSONValue {
        ["dataId": .string(dataId), "data": .object(data), "deleted": .bool(deleted),
         "timestamp": .number(timestamp), "opId": .string(opId)]
    }

    /// Reads one row of a snapshot; `pointer` (`/tables/tasks/3`) prefixes the path of any field at fault.
    public static func decode(_ value: JSONValue, at pointer: String) throws(SyncWireError) -> MaterializedRow {
        let fields = try FieldReader(value, at: pointer)
        let data = try FieldReader(fields.object["data"], at: fields.path("data")).object
        return MaterializedRow(dataId: try fields.text("dataId"), data: data, deleted: try fields.bool("deleted"),
                               timestamp: try fields.number("timestamp"), opId: try fields.text("opId"))
    }
}
