import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

@Suite("held packets")
struct HeldPacketTests {
    typealias Server = LocalSyncServer

    @Test("a held packet whose dependency never arrives is rejected after its hold, with the reason", arguments: TestStore.allCases)
    func heldPacketExpires(store: TestStore) async throws {
        try await Server.with(store: store, hold: .milliseconds(300)) { server in
            let device = try await server.register()
            let ops = [Server.insert("op-b", "t1", ["x": 1], at: 1)]
            let held = try await server.push(device, packetId: "B", dependency: "A", ops: ops)
            #expect(held.status == 202)

            let rejected = try await eventually {
                try await server.packetState(device, "B").body["state"] == "rejected"
            }
            #expect(rejected)
            let record = try await server.packetState(device, "B")
            #expect(record.body["reason"] == "dependency A not received within 0.3 s")

            let repushed = try await server.push(device, packetId: "B", dependency: "A", ops: ops)
            #expect(repushed.status == 409)
            #expect(repushed.body["rejected"] == true)
            #expect(repushed.body["packetId"] == "B")
            #expect(repushed.body["reason"] == "dependency A not received within 0.3 s")
            #expect(repushed.errorCode == "conflict")
            #expect(try await server.loggedOpIds(device).isEmpty)
        }
    }

    @Test("a packet is held for the whole hold on the server's clock, and the timer rejects it once overdue even when nobody pushes or asks",
          arguments: TestStore.allCases)
    func sweeperRunsOnItsOwn(store: TestStore) async throws {
        let clock = ManualClock()
        // The product's default 30 s hold (a test server's is longer), in no time: the test moves
        // the server's clock.
        try await Server.with(store: store, hold: .seconds(30), configure: { $0.clock = clock }) { server in
            let device = try await server.register()
            let other = try await server.register(name: "other")
            _ = try await server.push(device, packetId: "B", dependency: "A", ops: [Server.insert("op-b", "t1", [:], at: 1)])
            clock.advance(by: .seconds(29))
            // Every push sweeps first, so once this one is answered a sweep at 29 s has run.
            #expect(try await server.push(other, packetId: "P", dependency: nil, ops: [Server.insert("op-p", "t2", [:], at: 1)]).status == 200)
            #expect(try await server.server.store.packet(deviceId: device.id, packetId: "B")?.state == .held, "29 s of a 30 s hold")
            // The sweeper sleeps a second of the server's clock between sweeps: the clock moves on
            // until one has run past the hold. Within 20 s, so a server deaf to its clock (which
            // would reject B after 30 real seconds) fails.
            let rejected = try await eventually(within: .seconds(20)) {
                clock.advance(by: .seconds(1))
                return try await server.server.store.packet(deviceId: device.id, packetId: "B")?.state == .rejected
            }
            #expect(rejected)
            #expect(try await server.packetState(device, "B").body["reason"] == "dependency A not received within 30 s")
        }
    }

    @Test("packets that depend on a rejected packet are rejected too, held or pushed later", arguments: TestStore.allCases)
    func rejectionCascades(store: TestStore) async throws {
        try await Server.with(store: store, hold: .milliseconds(300)) { server in
            let device = try await server.register()
            // B waits for A (never sent); C waits for B, which arrived but is itself held.
            #expect(try await server.push(device, packetId: "B", dependency: "A", ops: [Server.insert("op-b", "t1", [:], at: 1)]).status == 202)
            // Held (202), or already refused (409) when a loaded machine let B's limit pass first.
            #expect([202, 409].contains(try await server.push(device, packetId: "C", dependency: "B", ops: [Server.insert("op-c", "t2", [:], at: 1)]).status))
            let settled = try await eventually {
                try await server.packetState(device, "C").body["state"] == "rejected"
            }
            #expect(settled)
            #expect(try await server.packetState(device, "B").body["reason"] == "dependency A not received within 0.3 s")
            #expect(try await server.packetState(device, "C").body["reason"] == "dependency B was rejected")

            let late = try await server.push(device, packetId: "D", dependency: "C", ops: [Server.insert("op-d", "t3", [:], at: 1)])
            #expect(late.status == 409)
            #expect(late.body["reason"] == "dependency C was rejected")
            #expect(try await server.packetState(device, "D").body["state"] == "rejected")
            #expect(try await server.loggedOpIds(device).isEmpty)
        }
    }

    @Test("150 packets pushed in reverse order are all applied, in dependency order", arguments: TestStore.allCases)
    func manyPacketsInFlight(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            let count = 150
            for index in stride(from: count - 1, through: 1, by: -1) {
                let reply = try await server.push(device, packetId: "p\(index)", dependency: "p\(index - 1)",
                                                  ops: [Server.update("op-\(index)", "counter", ["last": .number(Double(index))], at: Double(index))])
                #expect(reply.status == 202, "p\(index): \(reply)")
            }
            let first = try await server.push(device, packetId: "p0", dependency: nil,
                                              ops: [Server.insert("op-0", "counter", ["last": 0], at: 0)])
            #expect(first.status == 200)
            #expect(first.body["applied"] == ["op-0"])

            #expect(try await server.loggedOpIds(device) == (0..<count).map { "op-\($0)" })
            for index in [1, 75, 149] {
                let record = try await server.packetState(device, "p\(index)")
                #expect(record.body["state"] == "applied")
                // The per-device sequence counts arrivals: p149 came first, p0 last.
                #expect(record.body["seq"]?.intValue == count - index)
            }
            let row = try await server.snapshot(device)["tables"]?["tasks"]?[0]
            #expect(row?["data"] == ["last": 149])
        }
    }
}
