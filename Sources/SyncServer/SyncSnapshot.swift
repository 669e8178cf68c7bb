import JSON
import SyncProtocol

/// The server's whole materialized state at one log position: what every replica that has pulled up
/// to ``cursor`` and folded with ``OperationFold`` must hold.
///
/// Wire form: `{"cursor", "tables": {TABLE: [row, ...]}}`, tables by name and rows by dataId, both
/// in UTF-8 byte order.
public struct SyncSnapshot: Sendable, Equatable {
    public var cursor: Int
    /// Rows of each table, sorted by dataId.
    public var tables: [String: [MaterializedRow]]

    public init(cursor: Int, tables: [String: [MaterializedRow]]) {
        self.cursor = cursor
        self.tables = tables
    }

    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: tables.count)
        for name in tables.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            object.appendUnique(name, .array(tables[name, default: []].map(\.json)))
        }
        return ["cursor": .number(Double(cursor)), "tables": .object(object)]
    }
}
