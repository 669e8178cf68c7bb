import JSON

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

    /// Reads a snapshot page, refusing it at the first field at fault. `more` is read from `next`:
    /// a page says both or neither.
    public static func decode(_ body: JSONValue) throws(SyncWireError) -> SyncSnapshot {
        let fields = try FieldReader(body, at: "")
        let cursor = try fields.integer("cursor")
        let tablesField = try FieldReader(fields.object["tables"], at: fields.path("tables"))
        var tables: [String: [MaterializedRow]] = [:]
        for (name, value) in tablesField.object {
            let pointer = tablesField.path(name)
            guard case .array(let elements) = value else { throw SyncWireError.field(pointer, expected: "array", got: value) }
            var rows: [MaterializedRow] = []
            rows.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                rows.append(try MaterializedRow.decode(element, at: JSONPointer.appending(pointer, index: index)))
            }
            tables[name, default: []] += rows
        }
        let more = try fields.bool("more")
        var next: RowPosition?
        if fields.object["next"] != nil || more {
            let position = try FieldReader(fields.object["next"], at: fields.path("next"))
            next = RowPosition(table: try position.text("table"), dataId: try position.text("dataId"))
        }
        guard more == (next != nil) else { throw SyncWireError.invalid(fields.path("more"), "expected true exactly when next is given") }
        return SyncSnapshot(cursor: cursor, tables: tables, next: next)
    }
}
