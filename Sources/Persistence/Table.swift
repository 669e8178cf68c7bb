import GRDB
import GRDBSQLite
import JSON

/// Single-table CRUD checked against the table's schema: the weak business of the design.
///
/// Writes take a ``WriteSession`` (the one write path: the events they record are published when
/// the transaction commits); reads take any GRDB `Database`. What comes out is a value copy.
///
/// ```swift
/// let count = try await center.write { session in
///     try center.table("tasks").insert([["title": "milk", "done": false] as JSONObject], in: session)
/// }
/// ```
public struct Table: Sendable {
    public let schema: TableSchema
    /// Values longer than this (bytes of text or blob) are refused.
    public static let maximumValueBytes = 4 * 1024 * 1024

    public init(schema: TableSchema) { self.schema = schema }

    public var name: String { schema.name }

    private func check(_ values: JSONObject, path: String) throws(PersistenceError) -> [(ColumnDefinition, JSONValue)] {
        var checked: [(ColumnDefinition, JSONValue)] = []
        checked.reserveCapacity(values.count)
        for (key, value) in values {
            guard let column = schema.column(named: key) else {
                throw .invalid(path: JSONPointer.appending(path, key: key),
                               message: "unknown column \(Quoted(key)) in table \(Quoted(name)); expected one of \(schema.columns.map(\.name).joined(separator: ", "))")
            }
            try checkValue(value, type: column.type, name: column.name, path: path)
            checked.append((column, value))
        }
        return checked
    }

    @inline(__always)
    private func checkValue(_ value: JSONValue, type: ColumnType, name: String, path: @autoclosure () -> String) throws(PersistenceError) {
        guard type.accepts(value) else {
            throw .invalid(path: JSONPointer.appending(path(), key: name),
                           message: "expected \(type.expectation) for column \(Quoted(name)) (\(type.rawValue)), got \(value.typeName)")
        }
        let size: Int
        switch value {
        case .string(let s): size = s.utf8.count
        case .bytes(let b): size = b.count
        default: return
        }
        if size > Self.maximumValueBytes {
            throw .invalid(path: JSONPointer.appending(path(), key: name), message: "value too large: \(size) bytes, at most \(Self.maximumValueBytes)")
        }
    }

    private func key(of record: JSONObject, rowid: Int64) -> JSONValue {
        switch schema.primaryKey.count {
        case 0: return .number(Double(rowid))
        case 1: return record[schema.primaryKey[0]] ?? .number(Double(rowid))
        default: return .array(schema.primaryKey.map { record[$0] ?? .null })
        }
    }

    /// Inserts every record in the caller's transaction; returns how many. `path` points at the
    /// records in the caller's params (`/records`).
    ///
    /// Records with the same columns in the same order as the one before reuse its statement and
    /// its column look-up: the bulk path is a type check and a bind per value.
    @discardableResult
    @_specialize(where R == JSONObject)
    public func insert<R: Record>(_ records: [R], in session: WriteSession, path: String = "/records") throws(PersistenceError) -> Int {
        let db = session.db
        // GRDB's lastInsertedRowID checks the dispatch queue on every call; this loop is on it.
        let connection = db.sqliteConnection
        var statement: Statement?
        var statementColumns: [ColumnDefinition] = []
        var statementNames: [String] = []
        var statementTypes: [ColumnType] = []
        var arguments: [(JSONValue, ColumnType)] = []
        let integerKey = schema.hasIntegerKey ? schema.primaryKey[0] : nil
        do {
            let journal = try schema.journal?.inserting(into: schema, in: session)
            for (i, record) in records.enumerated() {
                var values = record.columns(for: schema)
                guard !values.isEmpty else { throw PersistenceError.invalid(path: path + "/\(i)", message: "expected at least one column") }
                if let journal { try journal.willInsert(&values, index: i, path: path) }
                arguments.removeAll(keepingCapacity: true)
                var sameShape = statement != nil && values.count == statementNames.count
                if sameShape {
                    for (index, member) in values.members.enumerated() where member.key != statementNames[index] {
                        sameShape = false
                        break
                    }
                }
                if sameShape {
                    for (index, member) in values.members.enumerated() {
                        let type = statementTypes[index]
                        try checkValue(member.value, type: type, name: member.key, path: path + "/\(i)")
                        arguments.append((member.value, type))
                    }
                } else {
                    let checked = try check(values, path: path + "/\(i)")
                    statementColumns = checked.map(\.0)
                    statementNames = statementColumns.map(\.name)
                    statementTypes = statementColumns.map(\.type)
                    for (column, value) in checked { arguments.append((value, column.type)) }
                    let sql = "INSERT INTO " + Identifier.quote(name) + " (" + statementColumns.map { Identifier.quote($0.name) }.joined(separator: ", ")
                        + ") VALUES (" + Array(repeating: "?", count: statementColumns.count).joined(separator: ", ") + ")"
                    statement = try db.cachedStatement(sql: sql)
                }
                try SQLiteBinding.execute(statement!, arguments, db: db)
                let rowid = sqlite3_last_insert_rowid(connection)
                if let journal { try journal.didInsert(rowid: rowid) }
                if session.recordsEvents {
                    if let integerKey, values[integerKey] == nil || values[integerKey] == .null {
                        values[integerKey] = .number(Double(rowid))
                    }
                    session.record(ChangeEvent(kind: .insert, table: name, key: key(of: values, rowid: rowid), record: values))
                }
            }
        } catch {
            throw PersistenceError.wrap(error)
        }
        return records.count
    }

    /// Sets `values` on the rows `query` matches; returns how many changed.
    @discardableResult
    public func update(_ query: QueryCommand, set values: JSONObject, in session: WriteSession, path: String = "/set") throws(PersistenceError) -> Int {
        guard !values.isEmpty else { throw .invalid(path: path, message: "expected at least one column to set") }
        let checked = try check(values, path: path)
        let journal = schema.journal
        var assignments = checked.map { Identifier.quote($0.0.name) + " = ?" }
        if let journal {
            try journal.checkUpdate(setting: values, table: schema, path: path)
            assignments += journal.updateAssignments
        }
        let returning = ["rowid"] + schema.columns.map { Identifier.quote($0.name) }
        let sql = "UPDATE " + Identifier.quote(name) + " SET " + assignments.joined(separator: ", ")
            + " WHERE " + query.whereSQL + " RETURNING " + returning.joined(separator: ", ")
        var changed = 0
        var journaled: [JSONObject] = []
        do {
            try journal?.willChange(matching: query, in: session)
            let statement = try session.db.cachedStatement(sql: sql)
            try SQLiteBinding.query(statement, checked.map { ($0.1, $0.0.type) } + query.arguments, db: session.db) { row in
                changed += 1
                guard session.recordsEvents || journal != nil else { return }
                let rowid = sqlite3_column_int64(row, 0)
                var record = JSONObject(minimumCapacity: schema.columns.count)
                for (i, column) in schema.columns.enumerated() {
                    record.appendUnique(column.name, SQLiteBinding.column(Int32(i + 1), as: column.type, in: row))
                }
                if journal != nil { journaled.append(record) }
                if session.recordsEvents { session.record(ChangeEvent(kind: .update, table: name, key: key(of: record, rowid: rowid), record: record)) }
            }
            try journal?.didUpdate(journaled, setting: values, matching: query, in: session)
        } catch {
            throw PersistenceError.wrap(error)
        }
        return changed
    }

    /// Deletes the rows `query` matches; returns how many.
    @discardableResult
    public func delete(_ query: QueryCommand, in session: WriteSession) throws(PersistenceError) -> Int {
        let journal = schema.journal
        if let deletion = journal?.deletion { return try update(query, set: deletion, in: session) }
        let keyColumns = schema.primaryKey.compactMap { schema.column(named: $0) }
        let sql = "DELETE FROM " + Identifier.quote(name) + " WHERE " + query.whereSQL + " RETURNING "
            + (["rowid"] + keyColumns.map { Identifier.quote($0.name) }).joined(separator: ", ")
        var deleted = 0
        var removed: [JSONObject] = []
        do {
            try journal?.willChange(matching: query, in: session)
            let statement = try session.db.cachedStatement(sql: sql)
            try SQLiteBinding.query(statement, query.arguments, db: session.db) { row in
                deleted += 1
                guard session.recordsEvents || journal != nil else { return }
                var record = JSONObject()
                for (i, column) in keyColumns.enumerated() {
                    record.appendUnique(column.name, SQLiteBinding.column(Int32(i + 1), as: column.type, in: row))
                }
                if journal != nil { removed.append(record) }
                if session.recordsEvents { session.record(ChangeEvent(kind: .delete, table: name, key: key(of: record, rowid: sqlite3_column_int64(row, 0)))) }
            }
            if let journal, !removed.isEmpty { try journal.didDelete(removed, from: schema, in: session) }
        } catch {
            throw PersistenceError.wrap(error)
        }
        return deleted
    }

    /// The rows `query` matches, as value copies.
    public func find(_ query: QueryCommand, in session: ReadSession) throws(PersistenceError) -> [JSONObject] {
        try fetch(query, as: JSONObject.self, in: session)
    }

    /// The rows `query` matches, each read straight into a `R` (GRDB's `fetchAll`).
    @_specialize(where R == JSONObject)
    public func fetch<R: ReadableRecord>(_ query: QueryCommand, as type: R.Type = R.self, in session: ReadSession) throws(PersistenceError) -> [R] {
        let db = session.db
        var records: [R] = []
        let names = query.selected.map(\.name)
        let types = query.selected.map(\.type)
        do {
            let statement = try db.cachedStatement(sql: query.selectSQL)
            let reader = FetchedRow(statement: statement.sqliteStatement, names: names, types: types, table: schema.name)
            try SQLiteBinding.query(statement, query.arguments, db: db) { _ in
                reader.rewind()
                records.append(try R(row: reader))
            }
        } catch {
            throw PersistenceError.wrap(error)
        }
        return records
    }

    /// How many rows `query` matches (its order, limit and offset are ignored).
    public func count(_ query: QueryCommand, in session: ReadSession) throws(PersistenceError) -> Int {
        let db = session.db
        var count = 0
        do {
            let statement = try db.cachedStatement(sql: query.countSQL)
            try SQLiteBinding.query(statement, query.arguments, db: db) { row in count = Int(sqlite3_column_int64(row, 0)) }
        } catch {
            throw PersistenceError.wrap(error)
        }
        return count
    }
}
