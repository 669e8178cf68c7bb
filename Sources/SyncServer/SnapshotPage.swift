import SyncProtocol

/// One page of a snapshot as a store reads it: rows in (table, dataId) order, up to `limit`, and
/// one row past it when there is one (``readLimit``), which says that more follow.
///
/// ```swift
/// var page = SnapshotPage(limit: limit)
/// while let row = try rows.next(), page.hasRoom() { page.add(try materialized(row), table: row["tableName"]) }
/// return page.snapshot(cursor: lastSeq)
/// ```
struct SnapshotPage: Sendable {
    let limit: Int?
    private var tables: [String: [MaterializedRow]] = [:]
    private var count = 0
    private var last: RowPosition?
    private var more = false

    init(limit: Int?) {
        self.limit = limit
    }

    /// How many rows the store reads: one past the page, when it has a limit.
    var readLimit: Int? { limit.map { $0 + 1 } }

    /// Whether the row just read belongs on this page; false once the page holds `limit` rows (the
    /// row is the next page's first, so more follow), and the store reads no further.
    mutating func hasRoom() -> Bool {
        guard let limit, count == limit else { return true }
        more = true
        return false
    }

    mutating func add(_ row: MaterializedRow, table: String) {
        tables[table, default: []].append(row)
        last = RowPosition(table: table, dataId: row.dataId)
        count += 1
    }

    /// The page, at the log's last seq as of the read.
    func snapshot(cursor: Int) -> SyncSnapshot {
        SyncSnapshot(cursor: cursor, tables: tables, next: more ? last : nil)
    }
}
