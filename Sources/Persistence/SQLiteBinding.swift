import GRDB
import GRDBSQLite
import JSON

/// Binds JSON values to, and reads them from, GRDB's prepared statements through the SQLite C API:
/// the hot loops of insert and fetch, where GRDB's `DatabaseValue` round trip would cost more than
/// SQLite itself. GRDB still owns the connection, the transactions and the statement cache.
public enum SQLiteBinding {
    nonisolated(unsafe) public static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    public static func bind(_ value: JSONValue, as type: ColumnType, at index: Int32, in statement: OpaquePointer) {
        switch value {
        case .null:
            sqlite3_bind_null(statement, index)
        case .bool(let b):
            // In a JSON column as JSON text, so that it reads back as a boolean, not 0 or 1.
            if type == .json { bindText(b ? "true" : "false", at: index, in: statement) } else { sqlite3_bind_int64(statement, index, b ? 1 : 0) }
        case .number(let n):
            if type != .real, type != .json, n.rounded(.towardZero) == n, abs(n) < 9.2e18 {
                sqlite3_bind_int64(statement, index, Int64(n))
            } else if type == .json {
                bindText(JSONWriter.write(value), at: index, in: statement)
            } else {
                sqlite3_bind_double(statement, index, n)
            }
        case .string(let s):
            if type == .json { bindText(JSONWriter.write(value), at: index, in: statement) } else { bindText(s, at: index, in: statement) }
        case .bytes(let bytes):
            if type == .json {
                bindText(JSONWriter.write(value), at: index, in: statement)
            } else {
                bytes.withUnsafeBytes { buffer in
                    _ = sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(buffer.count), transient)
                }
            }
        case .array, .object:
            bindText(JSONWriter.write(value), at: index, in: statement)
        }
    }

    public static func bindText(_ text: String, at index: Int32, in statement: OpaquePointer) {
        var text = text
        text.withUTF8 { utf8 in
            _ = sqlite3_bind_text(statement, index, utf8.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                  Int32(utf8.count), transient)
        }
    }

    /// Binds UTF-8 `bytes` (JSON written with ``JSONWriter/bytes(_:options:)``) as text.
    public static func bindText(_ bytes: [UInt8], at index: Int32, in statement: OpaquePointer) {
        bytes.withUnsafeBufferPointer { buffer in
            _ = sqlite3_bind_text(statement, index, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                  Int32(buffer.count), transient)
        }
    }

    /// Steps a statement whose values are already bound to its end, and resets it.
    public static func step(_ statement: Statement, db: Database) throws {
        let raw = statement.sqliteStatement
        let code = sqlite3_step(raw)
        sqlite3_reset(raw)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw error(code, db: db, sql: statement.sql) }
    }

    public static func column(_ index: Int32, as type: ColumnType, in statement: OpaquePointer) -> JSONValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_NULL:
            return .null
        case SQLITE_INTEGER:
            let v = sqlite3_column_int64(statement, index)
            return type == .boolean ? .bool(v != 0) : .number(Double(v))
        case SQLITE_FLOAT:
            return .number(sqlite3_column_double(statement, index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let pointer = sqlite3_column_blob(statement, index) else { return .bytes([]) }
            return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let pointer = sqlite3_column_text(statement, index) else { return .string("") }
            let text = String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
            if type == .json { return (try? JSONParser.parse(text)) ?? .string(text) }
            return .string(text)
        }
    }

    /// Binds `arguments` from 1, steps the statement to its end and resets it.
    public static func execute(_ statement: Statement, _ arguments: [(JSONValue, ColumnType)], db: Database) throws {
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        for (i, (value, type)) in arguments.enumerated() { bind(value, as: type, at: Int32(i + 1), in: raw) }
        try step(statement, db: db)
    }

    /// Binds `arguments`, then calls `row` for each result row; resets the statement at the end.
    public static func query(_ statement: Statement, _ arguments: [(JSONValue, ColumnType)], db: Database,
                      row: (OpaquePointer) throws -> Void) throws {
        let raw = statement.sqliteStatement
        sqlite3_reset(raw)
        for (i, (value, type)) in arguments.enumerated() { bind(value, as: type, at: Int32(i + 1), in: raw) }
        defer { sqlite3_reset(raw) }
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code, db: db, sql: statement.sql) }
            try row(raw)
        }
    }

    public static func error(_ code: Int32, db: Database, sql: String) -> DatabaseError {
        let message = db.sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }
}
