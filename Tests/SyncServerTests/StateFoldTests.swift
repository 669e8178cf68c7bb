import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

@Suite("materialized state over HTTP")
struct StateFoldTests {
    typealias Server = LocalSyncServer

    @Test("an update logged after the row's last write wins, whatever its device's stamp, which the log keeps", arguments: TestStore.allCases)
    func laterUpdateWins(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            _ = try await server.push(device, packetId: "p1", dependency: nil, ops: [
                Server.insert("op-1", "t1", ["title": "milk", "done": false], at: 1000),
                Server.update("op-2", "t1", ["done": true], at: 3000),
            ])
            let late = try await server.push(device, packetId: "p2", dependency: "p1", ops: [
                Server.update("op-3", "t1", ["done": false, "title": "bread"], at: 2000),
            ])
            #expect(late.body["applied"] == ["op-3"])
            let row = try await server.snapshot(device)["tables"]?["tasks"]?[0]
            #expect(row?["data"] == ["title": "bread", "done": false])
            #expect(row?["opId"] == "op-3")
            let ops = try await server.pull(device).body["ops"]?.arrayValue ?? []
            #expect(ops.map { $0["deviceTimestamp"] } == [1000, 3000, 2000])
            #expect(try await server.loggedOpIds(device) == ["op-1", "op-2", "op-3"])
        }
    }

    @Test("a batch op updates only the live rows that match its filter", arguments: TestStore.allCases)
    func batchMatchesFilter(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            _ = try await server.push(device, packetId: "p1", dependency: nil, ops: [
                Server.insert("op-1", "a", ["due": 100, "done": false, "list": "home"], at: 10),
                Server.insert("op-2", "b", ["due": 200, "done": false, "list": "home"], at: 10),
                Server.insert("op-3", "c", ["due": 150, "done": false, "list": "work"], at: 10),
                Server.insert("op-4", "d", ["due": 50, "done": false, "list": "home"], at: 10),
                Server.delete("op-5", "d", at: 11),
                Server.insert("op-6", "e", ["due": 120, "done": false, "list": "home"], at: 50),
                Server.insert("op-7", table: "notes", "x", ["due": 1], at: 10),
            ])
            let reply = try await server.push(device, packetId: "p2", dependency: "p1", ops: [
                Server.batch("op-8", where: ["list": "home", "due": ["lt": 180]], set: ["done": true], at: 20),
            ])
            #expect(reply.body["applied"] == ["op-8"])
            let tasks = try await server.snapshot(device)["tables"]?["tasks"]?.arrayValue ?? []
            let done = Dictionary(uniqueKeysWithValues: tasks.map { ($0["dataId"]?.stringValue ?? "", $0["data"]?["done"]) })
            #expect(done["a"] == true)     // matches
            #expect(done["b"] == false)    // due too late
            #expect(done["c"] == false)    // other list
            #expect(done["d"] == false)    // tombstone: passed over
            #expect(done["e"] == true)     // logged before the batch, whatever its device's stamp
            #expect(tasks.first { $0["dataId"] == "a" }?["opId"] == "op-8")
            let notes = try await server.snapshot(device)["tables"]?["notes"]?[0]
            #expect(notes?["data"] == ["due": 1])
        }
    }

    @Test("a delete leaves a tombstone that an update does not revive, and an insert logged later does", arguments: TestStore.allCases)
    func tombstoneHolds(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            _ = try await server.push(device, packetId: "p1", dependency: nil, ops: [Server.delete("op-del", "t1", at: 500)])
            _ = try await server.push(device, packetId: "p2", dependency: "p1", ops: [Server.update("op-upd", "t1", ["a": 1], at: 400)])
            let row = try await server.snapshot(device)["tables"]?["tasks"]?[0]
            #expect(row?["deleted"] == true && row?["data"] == ["a": 1] && row?["opId"] == "op-upd", "\(String(describing: row))")
            _ = try await server.push(device, packetId: "p3", dependency: "p2", ops: [Server.insert("op-new", "t1", ["a": 2], at: 300)])
            let revived = try await server.snapshot(device)["tables"]?["tasks"]?[0]
            #expect(revived?["deleted"] == false)
            #expect(revived?["data"] == ["a": 2])
        }
    }
}
