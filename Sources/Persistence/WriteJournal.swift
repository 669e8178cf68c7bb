import JSON

/// Follows one table's writes inside the write's own transaction, so that nothing written escapes
/// it and nothing it records outlives a rolled-back write. A table whose schema declares one (a
/// property a ``DatabaseJournal`` reads, such as `"sync"`) carries it in ``TableSchema/journal``;
/// a table without one pays a nil check per write.
///
/// ``Table`` calls it at each step of its one write path: per insert call (``inserting(into:in:)``,
/// then per row), before a change to the rows a query matches, after an update or a delete. It
/// may also change what a write does: assignments added to every update, a delete that is an
/// update (a logical delete), and a condition that hides rows from every query.
public protocol WriteJournal: Sendable {
    /// The table property that declares the journal, and its value as a schema writes it.
    var schemaProperty: (name: String, value: JSONValue) { get }

    /// The follower of one insert call's rows, prepared once for all of them.
    func inserting(into table: TableSchema, in session: WriteSession) throws -> any InsertJournal

    /// Refuses an update it cannot follow; `path` points at the values set (`/set`).
    func checkUpdate(setting values: JSONObject, table: TableSchema, path: String) throws(PersistenceError)
    /// SQL assignments (`"col" = expr`) added to every update of the table.
    var updateAssignments: [String] { get }
    /// Values a delete sets instead of removing the rows; nil when a delete removes them.
    var deletion: JSONObject? { get }
    /// The condition a row must meet for queries to see it (`qualifier` prefixes its column
    /// names); nil when every row is seen.
    func visibleCondition(qualifier: String) -> String?

    /// Before an update or delete changes the rows `query` matches.
    func willChange(matching query: QueryCommand, in session: WriteSession) throws
    /// After an update: the rows as they are now (every column of the table), the values set,
    /// and the query that chose them.
    func didUpdate(_ rows: [JSONObject], setting values: JSONObject, matching query: QueryCommand, in session: WriteSession) throws
    /// After a delete that removed rows: their primary key columns.
    func didDelete(_ keys: [JSONObject], from table: TableSchema, in session: WriteSession) throws
}

/// One insert call's follower (``WriteJournal/inserting(into:in:)``), told about each row before
/// and after it is written.
public protocol InsertJournal: AnyObject {
    /// Before record `index` of the records at `path` is written: may refuse it, or add values to
    /// it (columns the journal keeps).
    func willInsert(_ values: inout JSONObject, index: Int, path: String) throws
    /// After it is written, with its rowid.
    func didInsert(rowid: Int64) throws
}
