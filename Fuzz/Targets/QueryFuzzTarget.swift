import JSON
import Persistence
import SystemIO

/// Structured `where` filters (and orderBy, limit, offset, columns) compiled by `QueryCommand`
/// against a fixed table of every column type: `{"where": ..., "orderBy": ..., "limit": ...,
/// "offset": ..., "columns": ...}`. A query that compiles runs on SQLite without an error of
/// SQLite's own (the compiled SQL is always valid, with one bound value per placeholder), `find`
/// returns what `count` counts cut by offset and limit, and the same filter drives an update and
/// a delete, rolled back.
enum QueryFuzzTarget {
    static let target = FuzzTarget(name: "query", summary: "QueryCommand where/orderBy/limit compiled and run on SQLite") { input throws(FuzzFinding) in
        try run(input)
    }

    static let schema: JSONValue = [
        "columns": ["id": "INTEGER", "title": "TEXT NOT NULL", "done": "BOOLEAN NOT NULL DEFAULT FALSE", "due": "INTEGER",
                    "price": "REAL", "amount": "NUMERIC", "meta": "JSON", "blob": "BLOB"],
        "primaryKey": "id",
        "indexes": [["done", "due"]],
    ]

    static let rows: [JSONObject] = [
        ["id": 1, "title": "buy milk", "done": false, "due": 2, "price": 1.5, "amount": 3, "meta": ["tags": ["shop"]], "blob": .bytes([1, 2])],
        ["id": 2, "title": "walk", "done": true, "due": nil, "price": -0.25, "amount": "12", "meta": "text", "blob": nil],
        ["id": 3, "title": "50% off_", "done": false, "due": 1_700_000_000, "price": nil, "amount": 1e300, "meta": nil, "blob": .bytes([])],
        ["id": 4, "title": "", "done": true, "due": -3, "price": 2, "amount": nil, "meta": 7, "blob": .bytes([0])],
        ["id": 5, "title": "日本語 😀", "done": false, "due": 0, "price": 1e-300, "amount": true, "meta": [1, "a", nil], "blob": nil],
    ]

    /// One database for the whole run, in a fresh temporary folder: every input only reads it (its
    /// writes roll back), so inputs stay independent and replayable.
    static let fixture: (center: DataCenter, table: Table) = {
        let folder = FileSystem.makeTemporaryFolder(prefix: "hybrid-fuzz-query")!
        do {
            let center = try DataCenter(name: "fuzz", path: folder + "/fuzz.sqlite")
            let table = try TableSchema.parse(name: "items", schema, path: "/schema/tables/items")
            try blocking { try await center.open(schema: DatabaseSchema(version: 1, tables: [table])) }
            let items = try center.table("items")
            try center.writeNow { session in try items.insert(rows, in: session) }
            return (center, items)
        } catch {
            fatalError("query: cannot set up the fixture database in \(folder): \(error)")
        }
    }()

    struct RollBack: Error {}

    static func run(_ input: [UInt8]) throws(FuzzFinding) {
        guard let json = try? JSONParser.parse(input), case .object = json else { return }
        let (center, table) = fixture
        let query: QueryCommand
        do {
            query = try QueryCommand(table: table.schema, where: json["where"], orderBy: json["orderBy"], limit: json["limit"],
                                     offset: json["offset"], columns: json["columns"])
        } catch {
            guard case .invalid(let path, _) = error, path.hasPrefix("/") else {
                throw FuzzFinding("query", "a refused query must name the field at fault: \(error)")
            }
            return
        }
        let placeholders = query.selectSQL.utf8.count { $0 == UInt8(ascii: "?") }
        guard placeholders == query.arguments.count else {
            throw FuzzFinding("query", "\(placeholders) placeholders for \(query.arguments.count) values in \(query.selectSQL)")
        }
        let found: [JSONObject], counted: Int
        do {
            (found, counted) = try center.readNow { session in (try table.find(query, in: session), try table.count(query, in: session)) }
        } catch {
            throw FuzzFinding("query", "SQLite refused a compiled query: \(error)\n\(query.selectSQL)")
        }
        var expected = max(0, counted - (query.offset ?? 0))
        if let limit = query.limit { expected = min(expected, limit) }
        guard found.count == expected else {
            throw FuzzFinding("query", "find returned \(found.count) rows where count (\(counted)), offset and limit say \(expected)")
        }
        let changed = try rolledBack(center, "update") { session throws in try table.update(query, set: ["title": "x"], in: session) }
        let deleted = try rolledBack(center, "delete") { session throws in try table.delete(query, in: session) }
        guard changed == counted, deleted == counted else {
            throw FuzzFinding("query", "update changed \(changed) and delete \(deleted) rows where count says \(counted)")
        }
    }

    /// Runs a write and rolls it back, so the fixture stays as it is.
    static func rolledBack(_ center: DataCenter, _ what: String, _ body: (WriteSession) throws -> Int) throws(FuzzFinding) -> Int {
        var count: Int?
        do {
            try center.writeNow { session in
                count = try body(session)
                throw RollBack()
            }
        } catch {
            guard let count else { throw FuzzFinding("query", "a compiled filter failed in an \(what): \(error)") }
            return count
        }
        throw FuzzFinding("query", "the \(what) committed")
    }
}
