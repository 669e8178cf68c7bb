// The SyncProtocol module: what the sync server and its clients must agree on, and nothing else:
// the operations on the wire, the rule that folds them into state, batch filters, and each message
// with its one encoder and one decoder, used by both sides. Pure values over JSON; it never does
// I/O, and knows nothing of HTTP frameworks or JS.
import JSON

/// One two-way sync operation as a client pushes it and as the log hands it back.
///
/// Wire form: `{"opId", "dataId", "table", "type", "data", "dependencyId", "timestamp",
/// "scopeColumn"?}`, with `timestamp` in milliseconds and `scopeColumn` the column of the table
/// that holds each row's scope (absent for a table without one). For `batch`, `data` is `{"where": {...}, "set": {...}}` (see
/// ``BatchChange``) and `dataId` is ignored ("*" by convention).
public struct SyncOperation: Sendable, Equatable {
    /// Unique per device: a second op with the same id from the same device is a retry and is skipped.
    public var opId: String
    /// The row's key within ``table``.
    public var dataId: String
    public var table: String
    public var type: SyncOperationType
    /// The row's fields (insert), the fields to merge (update), `{where, set}` (batch); may be nil
    /// for delete.
    public var data: JSONObject?
    /// The op this one was made after, as the client saw it; recorded, not interpreted.
    public var dependencyId: String?
    /// Milliseconds; with ``opId`` it orders writes to a row (last writer wins).
    public var timestamp: Double
    /// The field of the row's data that holds its scope, for a scoped table.
    public var scopeColumn: String?

    public init(opId: String, dataId: String, table: String, type: SyncOperationType, data: JSONObject?,
                dependencyId: String? = nil, timestamp: Double, scopeColumn: String? = nil) {
        self.scopeColumn = scopeColumn
        self.opId = opId
        self.dataId = dataId
        self.table = table
        self.type = type
        self.data = data
        self.dependencyId = dependencyId
        self.timestamp = timestamp
    }

    /// The wire form.
    public var json: JSONObject {
        var object: JSONObject = [
            "opId": .string(opId), "dataId": .string(dataId), "table": .string(table), "type": .string(type.rawValue),
            "data": data.map(JSONValue.object) ?? .null, "dependencyId": dependencyId.map(JSONValue.string) ?? .null,
            "timestamp": .number(timestamp),
        ]
        if let scopeColumn { object["scopeColumn"] = .string(scopeColumn) }
        return object
    }

    /// Reads one op of a push; `pointer` (`/ops/3`) prefixes the path of any field at fault. A batch
    /// op's filter is checked here too, so a packet that would fail half-way is refused whole.
    public static func decode(_ value: JSONValue, at pointer: String) throws(SyncWireError) -> SyncOperation {
        let fields = try FieldReader(value, at: pointer)
        let opId = try fields.string("opId")
        let dataId = try fields.string("dataId")
        let table = try fields.string("table")
        let typeName = try fields.string("type")
        let expectedTypes = SyncOperationType.allCases.map(\.rawValue).joined(separator: ", ")
        guard let type = SyncOperationType(rawValue: typeName) else {
            throw SyncWireError.invalid(fields.path("type"), "unknown op type \"\(typeName)\", expected one of \(expectedTypes)")
        }
        let data = try fields.optionalObject("data")
        switch type {
        case .insert, .update:
            guard data != nil else { throw SyncWireError.field(fields.path("data"), expected: "object", got: fields.object["data"]) }
        case .batch:
            _ = try BatchChange(value: fields.object["data"], at: fields.path("data"))
        case .delete:
            break
        }
        let dependencyId = try fields.optionalString("dependencyId")
        let timestamp = try fields.number("timestamp")
        let scopeColumn = try fields.optionalString("scopeColumn")
        return SyncOperation(opId: opId, dataId: dataId, table: table, type: type, data: data,
                             dependencyId: dependencyId, timestamp: timestamp, scopeColumn: scopeColumn)
    }
}
