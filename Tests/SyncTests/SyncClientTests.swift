import CurlTransport
import Foundation
import GRDB
import HostTesting
import JSON
import Persistence
import SyncClient
import SystemIO
import Testing

/// Creates devices against a fresh server, runs `body`, removes everything.
func withSync(devices names: [String], clock: (any HostClock)? = nil, hold: Duration? = nil,
              _ body: (LocalSyncServer, [SyncDevice]) async throws -> Void) async throws {
    let server = try await LocalSyncServer.start(configure: { configuration in
        if let clock { configuration.clock = clock }
        if let hold { configuration.hold = hold }
    })
    var devices: [SyncDevice] = []
    do {
        for name in names {
            let device = try SyncDevice(name)
            devices.append(device)
            try await device.start(server: server.base)
        }
        try await body(server, devices)
    } catch {
        devices.forEach { $0.remove() }
        await server.finish()
        throw error
    }
    devices.forEach { $0.remove() }
    await server.finish()
}

@Suite("sync: two-way tables")
struct SyncTwoWayTests {
    @Test("inserts, updates, deletes and a batch op from two devices converge on both and on the server")
    func converge() async throws {
        try await withSync(devices: ["a", "b"]) { server, devices in
            let (a, b) = (devices[0], devices[1])
            try await a.insert("tasks", [["id": "a1", "title": "milk", "done": false, "due": 5], ["id": "a2", "title": "bread", "done": false, "due": 50]])
            try await b.insert("tasks", [["id": "b1", "title": "eggs", "done": false, "due": 7]])
            try await a.run()
            try await b.run()
            try await a.run()
            try await b.update("tasks", where: ["id": "a2"], set: ["title": "rye bread"])
            try await a.delete("tasks", where: ["id": "b1"])
            // "mark every task due before 10 done": one op, applied where it lands.
            try await b.update("tasks", where: ["due": ["lt": 10]], set: ["done": true])
            for _ in 0..<2 { try await a.run(); try await b.run() }
            let expected: [String: JSONObject] = [
                "a1": ["id": "a1", "title": "milk", "done": true, "due": 5],
                "a2": ["id": "a2", "title": "rye bread", "done": false, "due": 50],
            ]
            let (rowsA, rowsB, rowsServer) = (try await a.rows("tasks"), try await b.rows("tasks"), try await server.liveRows("tasks"))
            #expect(rowsA == expected, "\(rowsA)")
            #expect(rowsB == expected, "\(rowsB)")
            #expect(rowsServer == expected, "\(rowsServer)")
            let status = try await a.sync("status")
            #expect(status["pending"] == 0)
            #expect(status["acknowledged"] == 0)
        }
    }

    @Test("an insert's operation carries the row as the table stores it, whatever the records' shapes")
    func insertOperationData() async throws {
        let device = try SyncDevice("shapes")
        defer { device.remove() }
        _ = try await device.storage("open", ["schema": SyncDevice.schema])
        // Shapes change between records (and back), columns are left out, booleans come as numbers,
        // and text needs escaping: each op's data must still be the stored row.
        try await device.insert("tasks", [
            ["id": "a", "title": "plain"],
            ["title": "quote \" and \\ and \n and ü", "id": "b", "done": 1, "due": 3],
            ["id": "c", "title": "plain again"],
            ["id": "d"],
            ["due": 7, "done": false, "title": .null, "id": "e"],
        ])
        let packets = try device.replica.packetsToSend(deviceId: "device", maxOps: 100)
        let ops = try JSONParser.parse(try #require(packets.first).body)["ops"]?.arrayValue ?? []
        let data = Dictionary(uniqueKeysWithValues: ops.map { ($0["dataId"]?.stringValue ?? "", $0["data"] ?? .null) })
        #expect(data == [
            "a": ["id": "a", "title": "plain", "done": false, "due": .null],
            "b": ["id": "b", "title": "quote \" and \\ and \n and ü", "done": true, "due": 3],
            "c": ["id": "c", "title": "plain again", "done": false, "due": .null],
            "d": ["id": "d", "title": .null, "done": false, "due": .null],
            "e": ["id": "e", "title": .null, "done": false, "due": 7],
        ])
        for (id, row) in try await device.rows("tasks") { #expect(data[id] == .object(row), "\(id)") }
        let opIds = ops.compactMap { $0["opId"]?.stringValue }
        #expect(Set(opIds).count == 5)
        #expect(opIds.allSatisfy { $0.wholeMatch(of: /[0-9a-f]{16}-[0-9a-f]+/) != nil }, "\(opIds)")
    }

    @Test("an outbox made with AUTOINCREMENT (before 2026-11-22) is rebuilt without it, its entries kept")
    func outboxUpgrade() async throws {
        let device = try SyncDevice("upgrade")
        defer { device.remove() }
        let queue = try DatabaseQueue(path: device.dataDirectory + "/tasks.sqlite")
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE _hybrid_sync_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, op_id TEXT NOT NULL,
                  table_name TEXT NOT NULL, data_id TEXT NOT NULL, type TEXT NOT NULL, data TEXT, timestamp REAL NOT NULL,
                  state TEXT NOT NULL DEFAULT 'pending', packet_id TEXT, error TEXT, conflict_id TEXT)
                """)
            try db.execute(sql: "INSERT INTO _hybrid_sync_outbox (op_id, table_name, data_id, type, data, timestamp) VALUES ('old-1', 'tasks', 'o', 'insert', '{\"id\":\"o\"}', 1)")
        }
        try queue.close()
        _ = try await device.storage("open", ["schema": SyncDevice.schema])
        try await device.insert("tasks", [["id": "n", "title": "new"]])
        let reopened = try DatabaseQueue(path: device.dataDirectory + "/tasks.sqlite")
        let sql = try await reopened.read { db in try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = '_hybrid_sync_outbox'") }
        #expect(sql?.contains("AUTOINCREMENT") == false)
        let ops = try pendingOps(device).map { [$0["opId"] ?? .null, $0["dataId"] ?? .null] }
        #expect(ops.count == 2)
        #expect(ops.first == ["old-1", "o"])
        #expect(ops.last?[1] == "n")
        try reopened.close()
    }

    /// The ops `device` would push next, by position.
    private func pendingOps(_ device: SyncDevice) throws -> [JSONValue] {
        let packets = try device.replica.packetsToSend(deviceId: "device", maxOps: 1000)
        return try packets.flatMap { try JSONParser.parse($0.body)["ops"]?.arrayValue ?? [] }
    }

    @Test("an insert changed before it is sent still carries the row as inserted; the change travels as its own op")
    func insertThenChange() async throws {
        let device = try SyncDevice("changed")
        defer { device.remove() }
        _ = try await device.storage("open", ["schema": SyncDevice.schema])
        try await device.insert("tasks", [["id": "a", "title": "first", "due": 1], ["id": "b", "title": "gone"], ["id": "c", "title": "batch", "due": 2]])
        try await device.update("tasks", where: ["id": "a"], set: ["title": "second"])
        try await device.delete("tasks", where: ["id": "b"])
        try await device.update("tasks", where: ["due": ["lt": 10]], set: ["done": true])
        let ops = try pendingOps(device).map { [$0["type"] ?? .null, $0["dataId"] ?? .null, $0["data"] ?? .null] }
        #expect(ops == [
            ["insert", "a", ["id": "a", "title": "first", "done": false, "due": 1]],
            ["insert", "b", ["id": "b", "title": "gone", "done": false, "due": .null]],
            ["insert", "c", ["id": "c", "title": "batch", "done": false, "due": 2]],
            ["update", "a", ["title": "second"]],
            ["delete", "b", .null],
            ["batch", "*", ["where": ["due": ["lt": 10]], "set": ["done": true]]],
        ])
    }

    @Test("inserts journaled in multi-row chunks each keep their own row and order when all of them change")
    func manyInsertsThenChange() async throws {
        let device = try SyncDevice("many")
        defer { device.remove() }
        _ = try await device.storage("open", ["schema": SyncDevice.schema])
        let ids = (0..<70).map { "m\($0)" }
        try await device.insert("tasks", ids.enumerated().map { ["id": .string($1), "title": .string("t\($0)"), "due": .number(Double($0))] })
        try await device.update("tasks", where: ["id": ["in": .array(ids.map(JSONValue.string))]], set: ["title": "changed"])
        let ops = try pendingOps(device)
        let inserts = ops.filter { $0["type"] == "insert" }
        #expect(inserts.map { $0["dataId"] ?? .null } == ids.map(JSONValue.string))
        #expect(inserts.map { $0["data"]?["title"] ?? .null } == (0..<70).map { .string("t\($0)") })
        #expect(ops.filter { $0["type"] == "update" }.count == 70)
    }

    @Test("a rolled-back change leaves the insert deferred, and a later change still gives it the row as inserted")
    func rolledBackChange() async throws {
        let device = try SyncDevice("rollback")
        defer { device.remove() }
        _ = try await device.storage("open", ["schema": SyncDevice.schema])
        try await device.insert("tasks", [["id": "a", "title": "first"]])
        // The update takes the row into the insert, then the transaction fails and rolls back.
        await #expect(throws: (any Error).self) {
            _ = try await device.storage("transaction", ["ops": [
                ["action": "update", "table": "tasks", "where": ["id": "a"], "set": ["title": "lost"]],
                ["action": "insert", "table": "nowhere", "records": [["id": "x"]]],
            ]])
        }
        // A transaction that inserts and changes a row, then rolls back, leaves nothing behind.
        await #expect(throws: (any Error).self) {
            _ = try await device.storage("transaction", ["ops": [
                ["action": "insert", "table": "tasks", "records": [["id": "z", "title": "never"]]],
                ["action": "update", "table": "tasks", "where": ["id": "z"], "set": ["title": "never again"]],
                ["action": "insert", "table": "nowhere", "records": [["id": "x"]]],
            ]])
        }
        try await device.update("tasks", where: ["id": "a"], set: ["title": "second"])
        let ops = try pendingOps(device).map { [$0["type"] ?? .null, $0["data"] ?? .null] }
        #expect(ops == [["insert", ["id": "a", "title": "first", "done": false, "due": .null]], ["update", ["title": "second"]]])
    }

    @Test("after a restart, and across a migration, a deferred insert still carries the row as inserted")
    func restartAndMigration() async throws {
        let folder = NSTemporaryDirectory() + "sync-tests-restart-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try SyncDevice("restart", dataDirectory: folder)
        _ = try await first.storage("open", ["schema": SyncDevice.schema])
        try await first.insert("tasks", [["id": "a", "title": "first"], ["id": "b", "title": "kept"]])
        // A new process: the deferred inserts are found in the outbox.
        let second = try SyncDevice("restart", dataDirectory: folder)
        _ = try await second.storage("open", ["schema": SyncDevice.schema])
        try await second.update("tasks", where: ["id": "a"], set: ["title": "second"])
        // A migration adds a column: b's insert keeps the row it was inserted as.
        var schema = SyncDevice.schema.objectValue!
        var tables = schema["tables"]!.objectValue!
        var tasks = tables["tasks"]!.objectValue!
        var columns = tasks["columns"]!.objectValue!
        columns["note"] = "TEXT DEFAULT 'n'"
        tasks["columns"] = .object(columns)
        tables["tasks"] = .object(tasks)
        schema["tables"] = .object(tables)
        schema["version"] = 2
        schema["migrations"] = ["2": [["op": "addColumn", "table": "tasks", "column": "note", "type": "TEXT DEFAULT 'n'"]]]
        _ = try await second.storage("open", ["schema": .object(schema)])
        let ops = try pendingOps(second).map { [$0["type"] ?? .null, $0["dataId"] ?? .null, $0["data"] ?? .null] }
        #expect(ops == [
            ["insert", "a", ["id": "a", "title": "first", "done": false, "due": .null]],
            ["insert", "b", ["id": "b", "title": "kept", "done": false, "due": .null]],
            ["update", "a", ["title": "second"]],
        ])
    }

    @Test("a pulled change never overwrites a local edit not yet sent: the edit is rebased on top")
    func rebase() async throws {
        try await withSync(devices: ["a", "b"]) { _, devices in
            let (a, b) = (devices[0], devices[1])
            try await a.insert("tasks", [["id": "t", "title": "first", "due": 1]])
            try await a.run()
            try await b.run()
            try await a.update("tasks", where: ["id": "t"], set: ["due": 2])
            try await a.run()
            // b edits another field, then pulls a's change before pushing its own.
            try await b.update("tasks", where: ["id": "t"], set: ["title": "second"])
            let pulled = try await b.run()
            #expect(pulled["conflicts"] == 1)
            #expect(try await b.rows("tasks")["t"] == ["id": "t", "title": "second", "done": false, "due": 2])
            try await a.run()
            #expect(try await a.rows("tasks")["t"] == ["id": "t", "title": "second", "done": false, "due": 2])
        }
    }

    @Test("concurrent edits of one field: the write the server logs last wins everywhere, whatever the devices' clocks")
    func lastWriteWins() async throws {
        try await withSync(devices: ["a", "b"]) { server, devices in
            let (a, b) = (devices[0], devices[1])
            try await a.insert("tasks", [["id": "t", "title": "base"]])
            try await a.run()
            try await b.run()
            try await b.update("tasks", where: ["id": "t"], set: ["title": "from b"])
            try await a.update("tasks", where: ["id": "t"], set: ["title": "from a, made later, sent later"])
            try await b.run()
            // a pulls b's edit before it sends its own: its unsent edit stays on top, as the server will decide.
            try await a.run()
            try await b.run()
            #expect(try await a.rows("tasks")["t"]?["title"] == "from a, made later, sent later")
            #expect(try await b.rows("tasks")["t"]?["title"] == "from a, made later, sent later")
            #expect(try await server.liveRows("tasks")["t"]?["title"] == "from a, made later, sent later")

            // An edit made earlier by its device's clock but sent later wins too: the server's order decides.
            try await a.update("tasks", where: ["id": "t"], set: ["title": "a, made first"])
            try await b.update("tasks", where: ["id": "t"], set: ["title": "b, made second"])
            try await b.run()
            try await a.run()
            try await b.run()
            #expect(try await b.rows("tasks")["t"]?["title"] == "a, made first")
            #expect(try await server.liveRows("tasks")["t"]?["title"] == "a, made first")
        }
    }

    @Test("conflict: ask records the conflict; resolve keeps local (sent again, wins) or remote (dropped)")
    func ask() async throws {
        try await withSync(devices: ["a", "b"]) { server, devices in
            let (a, b) = (devices[0], devices[1])
            try await a.insert("notes", [["id": "n1", "text": "v0"], ["id": "n2", "text": "v0"]])
            try await a.run()
            try await b.run()
            try await a.update("notes", where: ["id": ["in": ["n1", "n2"]]], set: ["text": "a's"])
            try await a.run()
            try await b.update("notes", where: ["id": ["in": ["n1", "n2"]]], set: ["text": "b's"])
            let run = try await b.run()
            #expect(run["conflicts"] == 2)
            #expect(run["pushed"] == 0)
            let conflicts = try await b.sync("conflicts")["conflicts"]?.arrayValue ?? []
            #expect(conflicts.count == 2)
            let byRow = Dictionary(uniqueKeysWithValues: conflicts.map { ($0["dataId"]?.stringValue ?? "", $0) })
            #expect(byRow["n1"]?["remote"]?["text"] == "a's")
            #expect(byRow["n1"]?["local"]?["text"] == "b's")
            _ = try await b.sync("resolve", ["conflictId": byRow["n1"]!["conflictId"]!, "keep": "local"])
            _ = try await b.sync("resolve", ["conflictId": byRow["n2"]!["conflictId"]!, "keep": "remote"])
            #expect(try await b.sync("conflicts")["conflicts"] == [])
            #expect(try await b.rows("notes")["n2"]?["text"] == "a's")
            try await b.run()
            try await a.run()
            for device in [a, b] {
                #expect(try await device.rows("notes")["n1"]?["text"] == "b's")
                #expect(try await device.rows("notes")["n2"]?["text"] == "a's")
            }
            #expect(try await server.liveRows("notes")["n1"]?["text"] == "b's")
        }
    }

    @Test("a packet the server holds is sent again and applied once its dependency arrives")
    func heldThenApplied() async throws {
        try await withSync(devices: ["a"]) { server, devices in
            let a = devices[0]
            let replica = try a.replica
            let deviceId = try replica.connection()!.deviceId
            try await a.insert("tasks", [["id": "1", "title": "one"]])
            let first = try replica.packetsToSend(deviceId: deviceId, maxOps: 100)
            try await a.insert("tasks", [["id": "2", "title": "two"]])
            let both = try replica.packetsToSend(deviceId: deviceId, maxOps: 100)
            #expect(both.count == 2)
            // The second packet arrives first: the server holds it.
            let answer = try await post(server, both[1], token: replica.connection()!.token)
            #expect(answer == 202)
            #expect(first.count == 1)
            let run = try await a.run()
            #expect(run["pushed"] == 2)
            #expect(try await server.liveRows("tasks").keys.sorted() == ["1", "2"])
        }
    }

    @Test("a packet whose dependency never arrives is rejected after the limit; its ops go again in a new packet, nothing fails")
    func rejectedThenResent() async throws {
        let clock = ManualClock()
        // The product's 30 s hold (a test server's is longer), passed on the server's own clock.
        try await withSync(devices: ["a"], clock: clock, hold: .seconds(30)) { server, devices in
            let a = devices[0]
            let replica = try a.replica
            let connection = try replica.connection()!
            try await a.insert("tasks", [["id": "1", "title": "one"]])
            _ = try replica.packetsToSend(deviceId: connection.deviceId, maxOps: 100)
            try await a.insert("tasks", [["id": "2", "title": "two"]])
            let packets = try replica.packetsToSend(deviceId: connection.deviceId, maxOps: 100)
            #expect(try await post(server, packets[1], token: connection.token) == 202)
            // Packet 1 does not arrive within the limit: the server gives up on packet 2. The
            // client sends packet 1, hears that packet 2 was refused for its dependency alone, and
            // sends its op again after packet 1.
            clock.advance(by: .seconds(31))
            let run = try await a.run()
            #expect(run["failed"] == 0 && run["pushed"] == 2, "\(run)")
            #expect(try await server.liveRows("tasks").keys.sorted() == ["1", "2"])
            let status = try await a.sync("status")
            #expect(status["failed"] == [] && status["rejectedPackets"] == 1, "\(status)")
        }
    }

    private func post(_ server: LocalSyncServer, _ packet: SyncReplica.Packet, token: String) async throws -> Int {
        let request = TransferRequest(url: server.base + "/v1/push", method: "POST",
                                      headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")], body: Array(packet.body.utf8))
        return try await CurlClient.shared.perform(request).status
    }
}
