import JSON
import SyncProtocol

/// The server's whole materialized state at one log position: what every replica that has pulled up
/// to ``cursor`` and folded with ``OperationFold`` must hold.
///
/// Wire form: `{"cursor", "tables": {TABLE: [row, ...]}, "more", "next"?}`, tables by name and
/// rows by dataId, both in UTF-8 byte order. A page of a larger snapshot has `more: true` and
/// `next: {"table", "dataId"}`, the position to ask the next page after; each page reflects the log
/// at its own `cursor`, and a device that folds the log from the first page's cursor on top of
/// every page converges (an op the page already reflects loses to the row's own stamp).
public struct SyncSnapshot: Sendable, Equatable {
    public var cursor: Int
    /// Rows of each table, sorted by dataId.
    public var tables: [String: [MaterializedRow]]
    /// Where the next page starts, when this one is not the last.
    public var next: RowPosition?

    public init(cursor: Int, tables: [String: [MaterializedRow]], next: RowPosition? = nil) {
        self.cursor = cursor
        self.tables = tables
        self.next = next
    }

    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: tables.count)
        for name in tables.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            object.appendUnique(name, .array(tables[name, default: []].map(\.json)))
        }
        var answer: JSONObject = ["cursor": .number(Double(cursor)), "tables": .object(object), "more": .bool(next != nil)]
        if let next { answer["next"] = ["table": .string(next.table), "dataId": .string(next.dataId)] }
        return .object(answer)
    }
}
