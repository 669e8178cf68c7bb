import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

@Suite("durability")
struct DurabilityTests {
    typealias Server = LocalSyncServer

    @Test("a server restarted on the same database keeps state, cursor, tokens and packet records", arguments: TestStore.allCases)
    func restart(store: TestStore) async throws {
        let first = try await Server.start(store: store)
        let device = try await first.register()
        _ = try await first.push(device, packetId: "p1", dependency: nil, ops: [
            Server.insert("op-1", "t1", ["title": "milk"], at: 1), Server.insert("op-2", "t2", ["title": "eggs"], at: 1),
        ])
        let held = try await first.push(device, packetId: "p3", dependency: "p2", ops: [Server.delete("op-4", "t2", at: 5)])
        #expect(held.status == 202)
        let snapshot = try await first.snapshot(device)
        await first.stop()

        let second = try await first.anotherInstance()
        do {
            #expect(try await second.snapshot(device) == snapshot)
            #expect(try await second.pull(device).body["cursor"] == 2)
            #expect(try await second.packetState(device, "p1").body["state"] == "applied")
            #expect(try await second.packetState(device, "p3").body["state"] == "held")
            #expect(try await second.push(device, packetId: "p1", dependency: nil, ops: []).body["applied"] == ["op-1", "op-2"])

            // The held packet survived the restart and is applied once its dependency arrives.
            let reply = try await second.push(device, packetId: "p2", dependency: "p1", ops: [Server.update("op-3", "t1", ["done": true], at: 2)])
            #expect(reply.body["applied"] == ["op-3"])
            #expect(try await second.loggedOpIds(device) == ["op-1", "op-2", "op-3", "op-4"])
            #expect(try await second.packetState(device, "p3").body["seq"] == 2)
            #expect(try await second.packetState(device, "p2").body["seq"] == 3)
        } catch {
            await second.finish()
            throw error
        }
        await second.finish()
    }
}
