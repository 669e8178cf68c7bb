import Bridge
import GRDB
import HostTesting
import HybridHost
import JSON
import Testing

/// Storage on a disk that fills up: a real tmpfs of a few hundred KiB under the app's data folder,
/// written through the services as the bridge calls them (a database with a plain and a synced
/// table, whose writes the sync journal records in the same transaction, and kv).
@Suite("storage on a full disk", .serialized)
struct DiskFullTests {
    let registry = HostServices.registry()

    func call(_ app: AppContext, _ target: String, _ action: String, _ params: JSONValue) async throws -> JSONValue {
        let service = try #require(registry[target])
        let handler = try #require(service.actions[action])
        return try await handler.perform(ServiceCall(target: target, action: action, params: params, app: app))
    }

    /// Runs `write` until it throws; returns the error, which must be the bridge's.
    func fill(_ write: (Int) async throws -> Void) async throws -> BridgeError {
        for attempt in 0..<100_000 {
            do {
                try await write(attempt)
            } catch let error as BridgeError {
                return error
            }
        }
        throw BridgeError.failed(reason: "test", "the disk never filled up")
    }

    @Test("a write to a full disk is E_FAILED disk_full; reads go on; once space returns, writes succeed and every acknowledged one is there, the files intact")
    func diskFull() async throws {
        let disk = try SmallDisk(kilobytes: 512)
        defer { disk.remove() }
        let app = AppContext(name: "full-disk", version: "1.0.0", dataDirectory: disk.path, grants: .all)
        let schema: JSONValue = ["version": 1, "tables": [
            "tasks": ["columns": ["id": "TEXT NOT NULL", "body": "TEXT"], "primaryKey": "id"],
            "notes": ["columns": ["id": "TEXT NOT NULL", "body": "TEXT"], "primaryKey": "id", "sync": ["mode": "twoWay"]],
        ]]
        _ = try await call(app, "storage", "open", ["database": "tasks", "schema": schema])
        _ = try await call(app, "kv", "set", ["bucket": "prefs", "key": "first", "value": "before the disk filled"])
        let body = JSONValue.string(String(repeating: "x", count: 900))
        var tasks: [String] = []
        var notes: [String] = []

        // The database: ten plain rows and one synced row per transaction, until the disk is full.
        let full = try await fill { batch in
            let ids = (0..<10).map { "t\(batch)-\($0)" }
            _ = try await call(app, "storage", "insert", ["database": "tasks", "table": "tasks",
                                                          "records": .array(ids.map { ["id": .string($0), "body": body] })])
            tasks += ids
            _ = try await call(app, "storage", "insert", ["database": "tasks", "table": "notes",
                                                          "records": [["id": .string("n\(batch)"), "body": body]]])
            notes.append("n\(batch)")
        }
        #expect(full.code == .failed && full.details?["reason"] == "disk_full", "\(full) \(full.details ?? nil)")
        #expect(tasks.count > 50, "the disk filled up after \(tasks.count) rows")
        // kv shares the disk: its writes fail the same way.
        var items = ["first"]
        let kvFull = try await fill { i in
            _ = try await call(app, "kv", "set", ["bucket": "prefs", "key": .string("k\(i)"), "value": body])
            items.append("k\(i)")
        }
        #expect(kvFull.code == .failed && kvFull.details?["reason"] == "disk_full", "\(kvFull)")

        // Reads go on, and see exactly what was acknowledged.
        func ids(_ table: String) async throws -> [String] {
            let found = try await call(app, "storage", "find", ["database": "tasks", "table": .string(table)])
            return (found["records"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }.sorted()
        }
        #expect(try await ids("tasks") == tasks.sorted())
        #expect(try await ids("notes") == notes.sorted())

        // Space returns: the same calls succeed, and nothing acknowledged was lost.
        try disk.resize(kilobytes: 8192)
        _ = try await call(app, "storage", "insert", ["database": "tasks", "table": "tasks", "records": [["id": "after", "body": body]]])
        _ = try await call(app, "storage", "insert", ["database": "tasks", "table": "notes", "records": [["id": "n-after", "body": body]]])
        _ = try await call(app, "kv", "set", ["bucket": "prefs", "key": "after", "value": "ok"])
        #expect(try await ids("tasks") == (tasks + ["after"]).sorted())
        #expect(try await ids("notes") == (notes + ["n-after"]).sorted())
        for key in items + ["after"] {
            #expect(try await call(app, "kv", "get", ["bucket": "prefs", "key": .string(key)])["value"] != nil, "kv item \(key) was acknowledged")
        }
        // The sync journal recorded every synced write the database kept, and none it refused.
        let status = try await call(app, "sync", "status", ["database": "tasks"])
        #expect(status["pending"] == .number(Double(notes.count + 1)), "\(status)")
        for file in ["tasks.sqlite", ".kv.sqlite"] {
            let database = try DatabaseQueue(path: disk.path + "/" + file)
            #expect(try await database.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"], "\(file)")
        }
    }
}
