import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

@Suite("materialized state over HTTP")
struct StateFoldTests {
    typealias Server = LocalSyncServer

    @Test("an update older than the row's last write is logged but changes nothing", arguments: TestStore.allCases)
    func olderUpdateLoses(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            _ = try await server.push(device, packetId: "p1", dependency: nil, ops: [
                Server.insert("op-1", "t1", ["title": "milk", "done": false], at: 1000),
                Server.update("op-2", "t1", ["done": true], at: 3000),
            ])
            let before = try await server.snapshot(device)
            let late = try await server.push(device, packetId: "p2", dependency: "p1", ops: [
                Server.update("op-3", "t1", ["done": false, "title": "bread"], at: 2000),
            ])
            #expect(late.body["applied"] == ["op-3"])
            let after = try await server.snapshot(device)
            #expect(after["tables"] == before["tables"])
            #expect(after["cursor"] == 3)
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
            #expect(done["e"] == false)    // newer than the batch
            #expect(tasks.first { $0["dataId"] == "a" }?["opId"] == "op-8")
            let notes = try await server.snapshot(device)["tables"]?["notes"]?[0]
            #expect(notes?["data"] == ["due": 1])
        }
    }

    @Test("a delete leaves a tombstone that an older insert arriving later cannot revive", arguments: TestStore.allCases)
    func tombstoneHolds(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            _ = try await server.push(device, packetId: "p1", dependency: nil, ops: [Server.delete("op-del", "t1", at: 500)])
            _ = try await server.push(device, packetId: "p2", dependency: "p1", ops: [Server.insert("op-ins", "t1", ["a": 1], at: 400)])
            let row = try await server.snapshot(device)["tables"]?["tasks"]?[0]
            #expect(row == ["dataId": "t1", "data": [:], "deleted": true, "timestamp": 500, "opId": "op-del"])
            _ = try await server.push(device, packetId: "p3", dependency: "p2", ops: [Server.insert("op-new", "t1", ["a": 2], at: 600)])
            let revived = try await server.snapshot(device)["tables"]?["tasks"]?[0]
            #expect(revived?["deleted"] == false)
            #expect(revived?["data"] == ["a": 2])
        }
    }
}
