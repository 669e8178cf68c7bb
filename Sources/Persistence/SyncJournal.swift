import Foundation
import GRDB
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

    /// The to-sync insert of one write path call, prepared once for all its rows.
    struct Writer {
        let statement: Statement
        let db: Database

        init(_ session: WriteSession) throws {
            db = session.db
            statement = try db.cachedStatement(sql: SyncJournal.insertSQL)
        }

        func record(opId: String, table: String, dataId: String, type: String, data: JSONValue?) throws {
            let dataText: JSONValue = data.map { .string(JSONWriter.write($0)) } ?? .null
            try SQLiteBinding.execute(statement, [(.string(opId), .text), (.string(table), .text), (.string(dataId), .text), (.string(type), .text),
                                                  (dataText, .text), (.number(SyncJournal.timestamp()), .real)], db: db)
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

    /// An inserted row as the table stores it: the values given, and every other column at its
    /// default (or null). Every replica then holds the same fields, and a batch filter on a
    /// defaulted column matches on the server as it does here.
    static func insertedRow(_ values: JSONObject, schema: TableSchema) -> JSONObject {
        var row = canonical(values, schema: schema)
        for column in schema.columns where row[column.name] == nil && !SyncPolicy.isBookkeeping(column.name) {
            row.appendUnique(column.name, column.type.canonical(column.defaultValue ?? .null))
        }
        return row
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
