import HostTesting
import JSON
import SyncProtocol
import SyncServer
import SystemIO
import Testing

@Suite("sync protocol")
struct SyncProtocolTests {
    typealias Server = LocalSyncServer

    @Test("registering a device returns a UUID and a 32-byte hex token", arguments: TestStore.allCases)
    func registration(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let reply = try await server.post("/v1/devices", token: nil, json: ["name": "laptop"])
            #expect(reply.status == 201)
            let id = try #require(reply.body["deviceId"]?.stringValue)
            let token = try #require(reply.body["token"]?.stringValue)
            #expect(id.count == 36)
            #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
            let other = try await server.register()
            #expect(other.id != id && other.token != token)
            let snapshot = try await server.get("/v1/snapshot", token: token)
            #expect(snapshot.status == 200)
        }
    }

    @Test("health answers without a token", arguments: TestStore.allCases)
    func health(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let reply = try await server.get("/v1/health", token: nil)
            #expect(reply.status == 200)
            #expect(reply.body["ok"] == true, "\(reply)")  // HealthTests checks the store's part
        }
    }

    @Test("a pushed packet is applied, and a pull returns its ops with seq, deviceId, the server's stamp and the device's", arguments: TestStore.allCases)
    func pushThenPull(store: TestStore) async throws {
        let clock = ManualClock()
        try await Server.with(store: store, configure: { $0.clock = clock }) { server in
            let phone = try await server.register(name: "phone")
            let laptop = try await server.register(name: "laptop")
            let ops = [Server.insert("op-1", "t1", ["title": "milk", "done": false], at: 1000),
                       Server.update("op-2", "t1", ["done": true], at: 2000)]
            let pushed = try await server.push(phone, packetId: "p1", dependency: nil, ops: ops)
            #expect(pushed.status == 200)
            #expect(pushed.body == ["applied": ["op-1", "op-2"], "duplicates": [], "cursor": 2])

            let pulled = try await server.pull(laptop)
            #expect(pulled.status == 200)
            #expect(pulled.body["cursor"] == 2)
            #expect(pulled.body["more"] == false)
            let first = try #require(pulled.body["ops"]?[0])
            // Stamped by the server as it logged them: its clock, then a microsecond past.
            let logged = clock.wallTime.secondsSince1970 * 1000
            let second = try #require(pulled.body["ops"]?[1]?["timestamp"]?.numberValue)
            #expect(second > logged && second - logged < 0.01)
            #expect(first == ["opId": "op-1", "dataId": "t1", "table": "tasks", "type": "insert", "data": ["title": "milk", "done": false],
                              "dependencyId": nil, "timestamp": .number(logged), "seq": 1, "deviceId": .string(phone.id), "deviceTimestamp": 1000])
            #expect(pulled.body["ops"]?[1]?["seq"] == 2)
            #expect(pulled.body["ops"]?[1]?["deviceTimestamp"] == 2000)

            let snapshot = try await server.snapshot(laptop)
            #expect(snapshot == ["cursor": 2, "tables": ["tasks": [
                ["dataId": "t1", "data": ["title": "milk", "done": true], "deleted": false, "timestamp": .number(second), "opId": "op-2"],
            ]], "more": false])
        }
    }

    @Test("re-pushing an applied packet applies nothing twice and gives the same answer", arguments: TestStore.allCases)
    func idempotentRepush(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            let ops = [Server.insert("op-1", "t1", ["n": 1], at: 1), Server.insert("op-2", "t2", ["n": 2], at: 1)]
            let first = try await server.push(device, packetId: "p1", dependency: nil, ops: ops)
            let second = try await server.push(device, packetId: "p1", dependency: nil, ops: ops)
            #expect(first.status == 200)
            #expect(second.status == 200)
            #expect(second.body == first.body)
            #expect(try await server.loggedOpIds(device) == ["op-1", "op-2"])
            let record = try await server.packetState(device, "p1")
            #expect(record.body["state"] == "applied")
            #expect(record.body["applied"] == ["op-1", "op-2"])
        }
    }

    @Test("ops whose opId is already logged are skipped as duplicates, in later packets and within one", arguments: TestStore.allCases)
    func duplicateOpIds(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            _ = try await server.push(device, packetId: "p1", dependency: nil, ops: [Server.insert("op-1", "t1", ["n": 1], at: 1)])
            let again = [Server.insert("op-1", "t1", ["n": 99], at: 5), Server.insert("op-2", "t2", ["n": 2], at: 1),
                         Server.insert("op-2", "t2", ["n": 3], at: 9)]
            let reply = try await server.push(device, packetId: "p2", dependency: "p1", ops: again)
            #expect(reply.status == 200)
            #expect(reply.body["applied"] == ["op-2"])
            #expect(reply.body["duplicates"] == ["op-1", "op-2"])
            #expect(try await server.loggedOpIds(device) == ["op-1", "op-2"])
            let rows = try await server.snapshot(device)["tables"]?["tasks"]
            #expect(rows?[0]?["data"] == ["n": 1])
            #expect(rows?[1]?["data"] == ["n": 2])
        }
    }

    @Test("a push whose dependency has not arrived is held, then applied after it, in dependency order", arguments: TestStore.allCases)
    func outOfOrderPackets(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            let held = try await server.push(device, packetId: "B", dependency: "A", ops: [Server.delete("op-b", "t1", at: 20)])
            #expect(held.status == 202)
            #expect(held.body == ["held": true, "packetId": "B", "waitingFor": "A"])
            #expect(try await server.packetState(device, "B").body["state"] == "held")
            #expect(try await server.loggedOpIds(device).isEmpty)

            let applied = try await server.push(device, packetId: "A", dependency: nil, ops: [Server.insert("op-a", "t1", ["x": 1], at: 10)])
            #expect(applied.status == 200)
            #expect(applied.body["applied"] == ["op-a"])
            #expect(try await server.loggedOpIds(device) == ["op-a", "op-b"])
            let record = try await server.packetState(device, "B")
            #expect(record.body["state"] == "applied")
            #expect(record.body["applied"] == ["op-b"])
            let row = try await server.snapshot(device)["tables"]?["tasks"]?[0]
            #expect(row?["deleted"] == true)
            // Pushed again now, B gets the answer of its (cascaded) application; nothing is applied twice.
            let repushed = try await server.push(device, packetId: "B", dependency: "A", ops: [Server.delete("op-b", "t1", at: 20)])
            #expect(repushed.status == 200)
            #expect(repushed.body["applied"] == ["op-b"])
        }
    }

    @Test("pulls page with limit and more, and cursors only move forward", arguments: TestStore.allCases)
    func pullPaging(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            let ops = (1...7).map { Server.insert("op-\($0)", "t\($0)", ["n": .number(Double($0))], at: Double($0)) }
            _ = try await server.push(device, packetId: "p1", dependency: nil, ops: ops)

            var cursor = 0
            var pages: [[Int]] = []
            while true {
                let page = try await server.pull(device, after: cursor, limit: 3)
                #expect(page.status == 200)
                let seqs = page.body["ops"]?.arrayValue?.compactMap { $0["seq"]?.intValue } ?? []
                pages.append(seqs)
                let next = try #require(page.body["cursor"]?.intValue)
                #expect(next >= cursor)
                cursor = next
                if page.body["more"] != true { break }
            }
            #expect(pages == [[1, 2, 3], [4, 5, 6], [7]])
            let past = try await server.pull(device, after: 50)
            #expect(past.body["ops"] == [])
            #expect(past.body["cursor"] == 50)
            #expect(past.body["more"] == false)
        }
    }

    @Test("the packet record answers 404 for a packet the server never saw", arguments: TestStore.allCases)
    func unknownPacket(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            let reply = try await server.packetState(device, "nope")
            #expect(reply.status == 404)
            #expect(reply.errorCode == "not_found")
        }
    }

    // Hummingbird hands a path parameter over as sent: a packet pushed as "p 1/ü" was asked for as
    // "p%201%2F%C3%BC" and not found.
    @Test("a packetId in the path is percent-decoded", arguments: TestStore.allCases)
    func percentDecodedPacketId(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            #expect(try await server.push(device, packetId: "p 1/ü", dependency: nil, ops: []).status == 200)
            let reply = try await server.get("/v1/packets/p%201%2F%C3%BC?deviceId=\(device.id)", token: device.token)
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.body["packetId"] == "p 1/ü")
            let malformed = try await server.get("/v1/packets/p%ZZ?deviceId=\(device.id)", token: device.token)
            #expect(malformed.status == 400 && malformed.errorPath == "/packetId", "\(malformed)")
        }
    }
}
