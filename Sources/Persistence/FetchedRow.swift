import GRDBSQLite
import JSON

/// The row a ``ReadableRecord`` is read from: typed values of the query's selected columns, by
/// name. Valid only during `init(row:)`: it reads the statement's current row in place, and one
/// reader serves every row of a fetch.
///
/// Values follow SQLite's conversions (an integer read as a string is its digits); a NULL reads as
/// 0, 0.0, "" or false, and `isNull` tells it apart. A name the query did not select throws.
public final class FetchedRow {
    let statement: OpaquePointer
    let names: [String]
    let types: [ColumnType]
    let table: String
    /// Where the next name is looked for first: records mostly read columns in selected order.
    private var next = 0

    init(statement: OpaquePointer, names: [String], types: [ColumnType], table: String) {
        self.statement = statement
        self.names = names
        self.types = types
        self.table = table
    }

    /// Called as the statement moves to the next row.
    func rewind() { next = 0 }

    public func int(_ column: String) throws(PersistenceError) -> Int {
        Int(sqlite3_column_int64(statement, try index(of: column)))
    }

    public func double(_ column: String) throws(PersistenceError) -> Double {
        sqlite3_column_double(statement, try index(of: column))
    }

    public func bool(_ column: String) throws(PersistenceError) -> Bool {
        sqlite3_column_int64(statement, try index(of: column)) != 0
    }

    public func string(_ column: String) throws(PersistenceError) -> String {
        let index = try index(of: column)
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
    }

    public func isNull(_ column: String) throws(PersistenceError) -> Bool {
        sqlite3_column_type(statement, try index(of: column)) == SQLITE_NULL
    }

    /// The value as ``Table/find(_:in:)`` gives it: typed by the column's declared type.
    public func value(_ column: String) throws(PersistenceError) -> JSONValue {
        let index = try index(of: column)
        return SQLiteBinding.column(index, as: types[Int(index)], in: statement)
    }

    /// The column after the last one read, else a short scan: comparing a few short names costs
    /// less than hashing one.
    private func index(of column: String) throws(PersistenceError) -> Int32 {
        if next < names.count, names[next] == column {
            next += 1
            return Int32(next - 1)
        }
        for index in names.indices where names[index] == column {
            next = index + 1
            return Int32(index)
        }
        throw .invalid(path: "", message: "column \(Quoted(column)) was not selected from \(Quoted(table)); selected: \(names.joined(separator: ", "))")
    }
}
