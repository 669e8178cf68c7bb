import HostTesting
import JSON
import Persistence
import Testing

/// A plain struct is a record: no base class, no registration.
struct TaskRecord: Record {
    var title: String
    var done: Bool
    var due: Int?

    func columns(for table: TableSchema) -> JSONObject {
        var columns: JSONObject = ["title": .string(title), "done": .bool(done)]
        if let due { columns["due"] = .number(Double(due)) }
        return columns
    }

    func merge(_ other: TaskRecord, overriding: Bool) -> TaskRecord {
        overriding ? TaskRecord(title: other.title, done: other.done, due: other.due ?? due)
            : TaskRecord(title: title, done: done, due: due ?? other.due)
    }
}

/// And a record that reads itself from a row. Reads `due` before `title`, out of the selected order.
extension TaskRecord: ReadableRecord {
    init(row: FetchedRow) throws(PersistenceError) {
        due = try row.isNull("due") ? nil : try row.int("due")
        title = try row.string("title")
        done = try row.bool("done")
    }
}

@Suite("DataCenter")
struct DataCenterTests {
    static let schema: JSONValue = [
        "version": 1,
        "tables": ["tasks": ["columns": ["id": "INTEGER", "title": "TEXT NOT NULL", "done": "BOOLEAN NOT NULL DEFAULT FALSE", "due": "INTEGER"],
                             "primaryKey": "id"]],
    ]

    func open(_ directory: TemporaryFolder, registry: DataCenterRegistry = DataCenterRegistry()) async throws -> DataCenter {
        let center = try registry.dataCenter(directory: directory.path, name: "tasks", create: true)
        try await center.open(schema: DatabaseSchema.parse(Self.schema, path: "/schema"))
        return center
    }

    @Test("a struct and a dictionary are both records of the same table")
    func recordsAreProtocols() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let center = try await open(directory)
        let tasks = try center.table("tasks")
        try await center.write { session in
            try tasks.insert([TaskRecord(title: "milk", done: false, due: 3)], in: session)
            try tasks.insert([["title": "bread", "done": true] as JSONObject], in: session)
        }
        let records = try await center.read { session in try tasks.find(QueryCommand(table: tasks.schema, orderBy: "title"), in: session) }
        #expect(records == [["id": 2, "title": "bread", "done": true, "due": nil], ["id": 1, "title": "milk", "done": false, "due": 3]])
    }

    @Test("fetch reads rows straight into records: filtered, ordered, NULL told apart, an unselected column refused")
    func fetchRecords() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let center = try await open(directory)
        let tasks = try center.table("tasks")
        try await center.write { session in
            try tasks.insert([TaskRecord(title: "milk", done: false, due: 3), TaskRecord(title: "bread", done: true, due: nil),
                              TaskRecord(title: "eggs", done: false, due: 0)], in: session)
        }
        let open = try await center.read { session in
            try tasks.fetch(QueryCommand(table: tasks.schema, where: ["done": false], orderBy: "-title"), as: TaskRecord.self, in: session)
        }
        #expect(open.map(\.title) == ["milk", "eggs"])
        #expect(open.map(\.due) == [3, 0])
        let all = try await center.read { session in try tasks.fetch(QueryCommand(table: tasks.schema, orderBy: "title"), as: TaskRecord.self, in: session) }
        #expect(all.first?.title == "bread" && all.first?.due == nil && all.first?.done == true)
        // The same rows as dictionaries: find is fetch as JSONObject.
        let values = try await center.read { session in try tasks.find(QueryCommand(table: tasks.schema, orderBy: "title"), in: session) }
        #expect(values.map { $0["title"] } == all.map { .string($0.title) })
        let error = await #expect(throws: PersistenceError.self) {
            try await center.read { session in
                try tasks.fetch(QueryCommand(table: tasks.schema, columns: ["title", "done"]), as: TaskRecord.self, in: session)
            }
        }
        #expect(error?.description.contains("column \"due\" was not selected from \"tasks\"; selected: title, done") == true, "\(String(describing: error))")
    }

    @Test("merge keeps this record's values unless told to override them")
    func merge() {
        let a: JSONObject = ["title": "a", "due": 1]
        #expect(a.merge(["title": "b", "done": true], overriding: false) == ["title": "a", "due": 1, "done": true])
        #expect(a.merge(["title": "b"], overriding: true) == ["title": "b", "due": 1])
        #expect(TaskRecord(title: "a", done: false, due: nil).merge(TaskRecord(title: "b", done: true, due: 5), overriding: false).due == 5)
    }

    @Test("a transaction that throws publishes no events; committed ones are numbered in commit order")
    func commitAwareEvents() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let center = try await open(directory)
        let tasks = try center.table("tasks")
        struct Abort: Error {}
        await #expect(throws: PersistenceError.self) {
            try await center.write { session in
                try tasks.insert([["title": "ghost"] as JSONObject], in: session)
                throw Abort()
            }
        }
        #expect(center.changes.lastSeq == 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask {
                    _ = try await center.write { session in
                        try tasks.insert([["title": .string("t\(i)")] as JSONObject, ["title": .string("u\(i)")] as JSONObject], in: session)
                    }
                }
            }
            try await group.waitForAll()
        }
        let batch = await center.changes.watch(since: 0, tables: nil, timeoutMs: 0)
        #expect(batch.events.map(\.seq) == Array(1...40))
        // The two inserts of one transaction are adjacent: nothing interleaves a commit.
        for pair in stride(from: 0, to: 40, by: 2) {
            let first = batch.events[pair].record?["title"]?.stringValue ?? ""
            let second = batch.events[pair + 1].record?["title"]?.stringValue ?? ""
            #expect(first.dropFirst() == second.dropFirst())
        }
        #expect(try await center.read { session in try tasks.count(QueryCommand(table: tasks.schema, where: ["title": "ghost"]), in: session) } == 0)
    }

    @Test("a watcher waiting for a commit is woken by it, and a timed-out one gets an empty batch")
    func watchWakes() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let center = try await open(directory)
        let tasks = try center.table("tasks")
        async let woken = center.changes.watch(since: nil, tables: nil, timeoutMs: 5_000)
        while center.changes.waiterCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        _ = try await center.write { session in try tasks.insert([["title": "x"] as JSONObject], in: session) }
        #expect(await woken.events.map(\.kind) == [.insert])
        let empty = await center.changes.watch(since: nil, tables: nil, timeoutMs: 20)
        #expect(empty.events.isEmpty)
    }

    @Test("a failing migration step rolls its version back and leaves the database at the previous one")
    func migrationRollsBack() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let center = try await open(directory)
        let bad: JSONValue = [
            "version": 2,
            "tables": ["tasks": ["columns": ["id": "INTEGER", "title": "TEXT NOT NULL", "done": "BOOLEAN NOT NULL DEFAULT FALSE", "due": "INTEGER", "note": "TEXT"], "primaryKey": "id"]],
            "migrations": ["2": [["op": "addColumn", "table": "tasks", "column": "note", "type": "TEXT"],
                                 ["op": "renameColumn", "table": "missing", "from": "a", "to": "b"]]],
        ]
        await #expect {
            try await center.open(schema: DatabaseSchema.parse(bad, path: "/schema"))
        } throws: { error in
            guard case PersistenceError.failed(let reason, let message, let details) = error else { return false }
            return reason == "migration" && message.contains("step 1 (renameColumn)") && details["step"] == 1
        }
        #expect(try center.version() == 1)
        #expect(try center.integrityCheck() == "ok")
    }

    @Test("a database reopened by another registry (another process) finds its stored schema")
    func reopens() async throws {
        let directory = TemporaryFolder(prefix: "storage-tests")
        defer { directory.remove() }
        let center = try await open(directory)
        _ = try await center.write { session in try center.table("tasks").insert([["title": "kept"] as JSONObject], in: session) }
        let again = try DataCenterRegistry().dataCenter(directory: directory.path, name: "tasks", create: false)
        let tasks = try again.table("tasks")
        #expect(try again.readNow { session in try tasks.count(QueryCommand(table: tasks.schema), in: session) } == 1)
        #expect(throws: PersistenceError.self) { try DataCenterRegistry().dataCenter(directory: directory.path, name: "other", create: false) }
        #expect(throws: PersistenceError.self) { try DataCenterRegistry().dataCenter(directory: directory.path, name: "../x", create: true) }
    }
}
