import Foundation
import GRDB
import GRDBSQLite
import JSON

/// Records local writes to synced tables as sync operations, at the one write path and inside the
/// write's own transaction (SPEC §6): no write escapes sync, and none is journaled without landing.
enum SyncJournal {
    /// Milliseconds since 1970, strictly increasing within the process: two writes in the same
    /// millisecond must still order as they happened, since (timestamp, opId) decides which wins.
    private static let last = Locked(0.0)

    static func timestamp() -> Double {
        let now = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        return last.withLock { last in
            last = max(now, last + 0.001)
            return last
        }
    }

    /// 64 random bits drawn once per process, then a counter: unique across devices (a collision
    /// needs two processes to draw the same 64 bits) at the cost of an increment, where a UUID
    /// costs a read of the system's random source per write.
    private static let prefix: String = {
        var generator = SystemRandomNumberGenerator()
        let hex = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }()
    private static let counter = Locked(UInt64(0))

    static func newIdentifier() -> String {
        let n = counter.withLock { value -> UInt64 in
            value += 1
            return value
        }
        return prefix + "-" + String(n, radix: 16)
    }

    private static let insertSQL = "INSERT INTO _hybrid_sync_outbox (op_id, table_name, data_id, type, data, timestamp) VALUES (?, ?, ?, ?, ?, ?)"

    static func record(opId: String, table: String, dataId: String, type: String, data: JSONValue?, in session: WriteSession) throws {
        try Writer(session).record(opId: opId, table: table, dataId: dataId, type: type, data: data)
    }

    /// The to-sync insert of one write path call, prepared once for all its rows. An inserted row's
    /// JSON is written straight into a reused byte buffer from its column names and values, with
    /// the names, and the defaults of the columns left out, encoded once per shape of record: the
    /// JSON of the operation was most of what a sync-tracked write cost over a plain one.
    struct Writer {
        let statement: Statement
        let db: Database
        private var data: [UInt8] = []
        private var shape: InsertShape?

        init(_ session: WriteSession) throws {
            db = session.db
            statement = try db.cachedStatement(sql: SyncJournal.insertSQL)
        }

        func record(opId: String, table: String, dataId: String, type: String, data: JSONValue?) throws {
            if let data {
                try insert(opId: opId, table: table, dataId: dataId, type: type, data: JSONWriter.bytes(data))
            } else {
                try insert(opId: opId, table: table, dataId: dataId, type: type, data: nil)
            }
        }

        /// Journals the insert of `values`, carrying the row as the table stores it: the values given
        /// (canonical: booleans as booleans), and every other column at its default or null, so that
        /// every replica holds the same fields and a batch filter on a defaulted column matches on
        /// the server as it does here.
        mutating func recordInsert(opId: String, table: String, dataId: String, values: JSONObject, schema: TableSchema) throws {
            if shape?.matches(values) != true { shape = InsertShape(values, schema: schema) }
            data.removeAll(keepingCapacity: true)
            shape!.write(values, into: &data)
            try insert(opId: opId, table: table, dataId: dataId, type: "insert", data: data)
        }

        private func insert(opId: String, table: String, dataId: String, type: String, data: [UInt8]?) throws {
            let raw = statement.sqliteStatement
            sqlite3_reset(raw)
            SQLiteBinding.bindText(opId, at: 1, in: raw)
            SQLiteBinding.bindText(table, at: 2, in: raw)
            SQLiteBinding.bindText(dataId, at: 3, in: raw)
            SQLiteBinding.bindText(type, at: 4, in: raw)
            if let data {
                data.withUnsafeBufferPointer { bytes in
                    _ = sqlite3_bind_text(raw, 5, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                                          SQLiteBinding.transient)
                }
            } else {
                sqlite3_bind_null(raw, 5)
            }
            sqlite3_bind_double(raw, 6, SyncJournal.timestamp())
            let code = sqlite3_step(raw)
            defer { sqlite3_reset(raw) }
            guard code == SQLITE_DONE else { throw SQLiteBinding.error(code, db: db, sql: statement.sql) }
        }
    }

    /// How records of one shape (the same keys in the same order) are written as inserted rows:
    /// each key's `"name":` encoded once, the type that canonicalizes its value, and the columns the
    /// records leave out, at their defaults, as one encoded tail.
    struct InsertShape {
        private let names: [String]
        private let keys: [[UInt8]?]
        private let types: [ColumnType]
        private let tail: [UInt8]

        init(_ values: JSONObject, schema: TableSchema) {
            names = values.members.map(\.key)
            var keys: [[UInt8]?] = [], types: [ColumnType] = []
            for name in names {
                guard let column = schema.column(named: name), !SyncPolicy.isBookkeeping(name) else {
                    keys.append(nil)
                    types.append(.text)
                    continue
                }
                var key: [UInt8] = []
                JSONWriter.appendString(name, to: &key)
                key.append(UInt8(ascii: ":"))
                keys.append(key)
                types.append(column.type)
            }
            var tail: [UInt8] = []
            for column in schema.columns where values[column.name] == nil && !SyncPolicy.isBookkeeping(column.name) {
                tail.append(UInt8(ascii: ","))
                JSONWriter.appendString(column.name, to: &tail)
                tail.append(UInt8(ascii: ":"))
                JSONWriter.append(column.type.canonical(column.defaultValue ?? .null), to: &tail)
            }
            self.keys = keys
            self.types = types
            self.tail = tail
        }

        func matches(_ values: JSONObject) -> Bool {
            guard values.count == names.count else { return false }
            for (index, member) in values.members.enumerated() where member.key != names[index] { return false }
            return true
        }

        func write(_ values: JSONObject, into out: inout [UInt8]) {
            out.append(UInt8(ascii: "{"))
            var first = true
            for (index, member) in values.members.enumerated() {
                guard let key = keys[index] else { continue }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                out.append(contentsOf: key)
                JSONWriter.append(types[index].canonical(member.value), to: &out)
            }
            out.append(contentsOf: first ? tail.dropFirst() : tail[...])
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The row's key as sync names it: the single TEXT primary key's value.
    static func dataId(_ record: JSONObject, schema: TableSchema, path: String) throws(PersistenceError) -> String {
        let key = schema.primaryKey[0]
        guard let id = record[key]?.stringValue, !id.isEmpty else {
            throw .invalid(path: JSONPointer.appending(path, key: key), message: "a synced table needs its key \(Quoted(key)) on every record: a non-empty string (a UUID)")
        }
        return id
    }

    /// Values as the table reads them back (booleans as booleans, integers as numbers), so that
    /// every replica and the server compare the same JSON.
    static func canonical(_ values: JSONObject, schema: TableSchema) -> JSONObject {
        var out = JSONObject(minimumCapacity: values.count)
        for (name, value) in values {
            guard let column = schema.column(named: name), !SyncPolicy.isBookkeeping(name) else { continue }
            out.appendUnique(name, column.type.canonical(value))
        }
        return out
    }

    /// A `where` a batch op can carry: plain equality and ne/lt/lte/gt/gte on columns, ANDed.
    /// Anything else ($or, in, like, isNull) is journaled row by row instead.
    static func batchFilter(_ filter: JSONValue?, schema: TableSchema) -> JSONObject? {
        guard let object = (filter ?? .object([:])).objectValue else { return nil }
        var out = JSONObject()
        for (key, value) in object {
            guard let column = schema.column(named: key) else { return nil }
            let value = value.objectValue.map { ops in
                JSONValue.object(JSONObject(ops.members.map { ($0.key, column.type.canonical($0.value)) }))
            } ?? column.type.canonical(value)
            if let ops = value.objectValue {
                var kept = JSONObject()
                for (op, operand) in ops {
                    if op == "eq" {
                        out[key] = operand
                    } else if ["ne", "lt", "lte", "gt", "gte"].contains(op), !operand.isNull {
                        kept[op] = operand
                    } else {
                        return nil
                    }
                }
                if !kept.isEmpty {
                    if out[key] != nil { return nil }
                    out[key] = .object(kept)
                }
            } else {
                if out[key] != nil { return nil }
                out[key] = value
            }
        }
        return out
    }
}

extension ColumnType {
    /// A value as this column reads it back.
    func canonical(_ value: JSONValue) -> JSONValue {
        switch (self, value) {
        case (.boolean, .number(let n)): .bool(n != 0)
        case (.integer, .bool(let b)), (.numeric, .bool(let b)): .number(b ? 1 : 0)
        default: value
        }
    }
}
