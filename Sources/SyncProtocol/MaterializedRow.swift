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
}
