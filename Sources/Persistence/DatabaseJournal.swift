import GRDB
import JSON

/// A kind of ``WriteJournal`` as a database knows it: the table property that declares it, what
/// the journal keeps beside the app's tables, and its state per database. A ``DataCenterRegistry``
/// made with one parses schemas with it and gives each of its databases an instance.
///
/// ```swift
/// let registry = DataCenterRegistry(journal: SomeJournal.self)
/// let schema = try DatabaseSchema.parse(json, path: "/schema", journal: registry.journal)
/// ```
public protocol DatabaseJournal: AnyObject, Sendable {
    /// The table property it reads (`"sync"`).
    static var tableProperty: String { get }
    /// Reads `value`, the property on `table`, into the journal that follows the table's writes.
    /// It may refuse the table as declared and add columns it keeps to it. `path` points at the
    /// table (`/schema/tables/tasks`).
    static func journal(_ value: JSONValue, for table: inout TableSchema, path: String) throws(PersistenceError) -> any WriteJournal

    /// One per database, for as long as its ``DataCenter`` lives.
    init()
    /// Before a database opened with `previous` migrates to another version.
    func willMigrate(from previous: DatabaseSchema, in db: Database) throws
    /// After the database is created or migrated to `schema` (the tables the journal keeps are
    /// created here), on the writer.
    func didOpen(_ schema: DatabaseSchema, in db: Database) throws
}

/// A journal's state for one write transaction (``WriteSession/transactionJournal``): it reaches
/// the database's state when the transaction commits, and is dropped when it rolls back.
public protocol TransactionJournal: AnyObject {
    func commit()
    func rollBack()
}
