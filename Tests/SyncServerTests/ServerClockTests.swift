import HostTesting
import JSON
import SyncProtocol
import SyncServer
import SystemIO
import Testing

/// Writes to a row are ordered by the server's stamps, given as it logs each op, not by the
/// devices' clocks: a device cannot pin a row with a stamp from the future, and one whose clock is
/// slow still wins with a later write. The device's own time stays beside each op.
@Suite("the server's clock orders writes")
struct ServerClockTests {
    typealias Server = LocalSyncServer

    /// Milliseconds since 1970 on `clock`'s wall, `offset` from now.
    static func stamp(_ clock: any HostClock, _ offset: Duration = .zero) -> Double {
        (clock.wallTime + offset).secondsSince1970 * 1000
    }

    static func row(_ server: Server, _ device: TestDevice, _ dataId: String) async throws -> JSONValue? {
        let snapshot = try await server.snapshot(device)
        return snapshot["tables"]?["tasks"]?.arrayValue?.first { $0["dataId"]?.stringValue == dataId }
    }

    @Test("each logged op carries the server's stamp (its clock, and past the op before) and the device's own", arguments: TestStore.allCases)
    func stampsOnTheServersClock(store: TestStore) async throws {
        let clock = ManualClock()
        try await Server.with(store: store, configure: { $0.clock = clock }) { server in
            let device = try await server.register()
            let deviceTime = Self.stamp(clock, .seconds(-3600))
            let reply = try await server.push(device, packetId: "p1", dependency: nil, ops: [
                Server.insert("op-1", "r1", ["v": 1], at: deviceTime), Server.insert("op-2", "r2", ["v": 2], at: deviceTime),
            ])
            #expect(reply.status == 200, "\(reply)")
            let ops = try #require(try await server.pull(device).body["ops"]?.arrayValue)
            let now = Self.stamp(clock)
            #expect(ops.map { $0["deviceTimestamp"]?.numberValue } == [deviceTime, deviceTime], "the device's time is kept: \(ops)")
            let stamps = ops.compactMap { $0["timestamp"]?.numberValue }
            #expect(stamps.count == 2 && stamps[0] == now, "the first op of an empty log gets the server's time: \(stamps), now \(now)")
            #expect(stamps.count == 2 && stamps[1] > stamps[0] && stamps[1] - stamps[0] < 0.01, "the second, in the same instant, a microsecond later: \(stamps)")

            // The clock goes on: a later push is stamped with the time then.
            clock.advance(by: .seconds(10))
            #expect(try await server.push(device, packetId: "p2", dependency: "p1", ops: [Server.update("op-3", "r1", ["v": 3], at: deviceTime)]).status == 200)
            let third = try #require(try await server.pull(device, after: 2).body["ops"]?.arrayValue?.first)
            #expect(third["timestamp"]?.numberValue == Self.stamp(clock))
            #expect(try await Self.row(server, device, "r1")?["data"]?["v"] == 3, "an update an hour behind by its device's clock wins: it came later")
        }
    }

    @Test("a device an hour behind still wins with a later write; a device ahead within the skew cannot pin the row", arguments: TestStore.allCases)
    func slowAndFastDevices(store: TestStore) async throws {
        let clock = ManualClock()
        try await Server.with(store: store, configure: { $0.clock = clock }) { server in
            let fast = try await server.register(name: "fast")
            let slow = try await server.register(name: "slow")
            // Four minutes ahead (within the 5 allowed): before, this stamp won every write for four minutes.
            #expect(try await server.push(fast, packetId: "f1", dependency: nil, ops: [
                Server.insert("f-1", "plan", ["title": "fast's"], at: Self.stamp(clock, .seconds(240))),
            ]).status == 200)
            clock.advance(by: .seconds(1))
            #expect(try await server.push(slow, packetId: "s1", dependency: nil, ops: [
                Server.update("s-1", "plan", ["title": "slow's, a second later"], at: Self.stamp(clock, .seconds(-3600))),
            ]).status == 200)
            #expect(try await Self.row(server, slow, "plan")?["data"]?["title"] == "slow's, a second later")
            clock.advance(by: .seconds(1))
            #expect(try await server.push(fast, packetId: "f2", dependency: "f1", ops: [
                Server.update("f-2", "plan", ["title": "fast's again"], at: Self.stamp(clock, .seconds(240))),
            ]).status == 200)
            #expect(try await Self.row(server, fast, "plan")?["data"]?["title"] == "fast's again", "the last write logged wins, whoever made it")
        }
    }

    @Test("a device ten years ahead is refused at its op's timestamp; even allowed (a huge skew), it cannot pin a row", arguments: TestStore.allCases)
    func tenYearsAhead(store: TestStore) async throws {
        let tenYears = Duration.seconds(10 * 365 * 86_400)
        try await Server.with(store: store) { server in
            let device = try await server.register()
            let reply = try await server.push(device, packetId: "p1", dependency: nil, ops: [
                Server.insert("op-1", "r1", ["v": 1], at: Self.stamp(SystemClock())),
                Server.insert("op-2", "r2", ["v": 1], at: Self.stamp(SystemClock(), tenYears)),
            ])
            #expect(reply.status == 400 && reply.errorPath == "/ops/1/timestamp", "\(reply)")
            #expect(reply.body["error"]?["message"]?.stringValue?.contains("no later than 300 s past the server's clock") == true, "\(reply)")
            #expect(try await server.pull(device).body["ops"]?.arrayValue?.isEmpty == true, "nothing of the packet was applied")
        }
        try await Server.with(store: store, configure: { $0.maxClockSkew = tenYears * 2 }) { server in
            let pinner = try await server.register(name: "pinner")
            let owner = try await server.register(name: "owner")
            #expect(try await server.push(pinner, packetId: "p1", dependency: nil, ops: [
                Server.insert("pin", "r1", ["v": "pinned"], at: Self.stamp(SystemClock(), tenYears)),
            ]).status == 200)
            #expect(try await server.push(owner, packetId: "o1", dependency: nil, ops: [
                Server.update("own", "r1", ["v": "the owner's"], at: Self.stamp(SystemClock())),
            ]).status == 200)
            #expect(try await Self.row(server, owner, "r1")?["data"]?["v"] == "the owner's")
            let ops = try #require(try await server.pull(owner).body["ops"]?.arrayValue)
            let stamps = ops.compactMap { $0["timestamp"]?.numberValue }
            #expect(stamps.count == 2 && stamps.allSatisfy { $0 < Self.stamp(SystemClock(), .seconds(60)) }, "stamps are the server's time: \(stamps)")
        }
    }
}
