import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

/// A held packet waits for its dependency for its hold (`--hold-seconds`), whatever holds that dependency back:
/// its never arriving, or its being held itself (two packets that depend on each other would
/// otherwise wait for good). Each rejection names what the packet waited for, with the prefix
/// "dependency " that clients match.
@Suite("held packets that wait on held packets")
struct HeldPacketCycleTests {
    typealias Server = LocalSyncServer

    @Test("two packets that depend on each other are both rejected once held past their hold", arguments: TestStore.allCases)
    func cycle(store: TestStore) async throws {
        try await Server.with(store: store, hold: .milliseconds(300)) { server in
            let device = try await server.register()
            let first = try await server.push(device, packetId: "A", dependency: "B", ops: [Server.insert("op-a", "t1", [:], at: 1)])
            #expect(first.status == 202, "\(first)")
            // Held (202), or already refused (409) when a loaded machine let A's hold pass first:
            // then A was rejected for B's absence, and B for A's rejection.
            let second = try await server.push(device, packetId: "B", dependency: "A", ops: [Server.insert("op-b", "t2", [:], at: 1)])
            #expect([202, 409].contains(second.status), "\(second)")
            // A few sweeps of the timer (one a second), not the 7 minutes of a 30 s hold it took.
            let settled = try await eventually(within: .seconds(60)) {
                let states = try await [server.packetState(device, "A"), server.packetState(device, "B")].map { $0.body["state"] }
                return states == ["rejected", "rejected"]
            }
            #expect(settled)
            let reasons = try await ["A", "B"].asyncMap { try await server.packetState(device, $0).body["reason"]?.stringValue ?? "" }
            if second.status == 202 {
                #expect(reasons == ["dependency B still held after 0.3 s", "dependency A was rejected"])
            } else {
                #expect(reasons == ["dependency B not received within 0.3 s", "dependency A was rejected"])
            }
            #expect(try await server.loggedOpIds(device).isEmpty)
        }
    }

    @Test("a chain pushed newest first, whose first packet never arrives, is rejected from that packet on: each names the one it waited for",
          arguments: TestStore.allCases)
    func chainNewestFirst(store: TestStore) async throws {
        // A hold long enough for the three pushes, on a loaded machine too: the oldest packet waits
        // while the ones it waits on are within theirs.
        try await Server.with(store: store, hold: .seconds(5)) { server in
            let device = try await server.register()
            let clock = ContinuousClock()
            var sent: [String: ContinuousClock.Instant] = [:]
            var answered: [String: ContinuousClock.Instant] = [:]
            for (packet, dependency) in [("D", "C"), ("C", "B"), ("B", "A")] {
                sent[packet] = clock.now
                let reply = try await server.push(device, packetId: packet, dependency: dependency, ops: [Server.insert("op-\(packet)", packet, [:], at: 1)])
                answered[packet] = clock.now
                #expect(reply.status == 202, "\(packet): \(reply)")
            }
            let settled = try await eventually(within: .seconds(30)) {
                try await ["B", "C", "D"].asyncMap { try await server.packetState(device, $0).body["state"] } == ["rejected", "rejected", "rejected"]
            }
            #expect(settled)
            let reasons = try await ["B", "C", "D"].asyncMap { try await server.packetState(device, $0).body["reason"]?.stringValue }
            // Each packet names the one it waited for. A packet whose dependency was pushed (and
            // answered) within the hold of its own push was rejected with that dependency; on a
            // machine loaded enough that the next push came back later, it may have been judged
            // first, rightly, for its dependency's absence.
            func expected(_ packet: String, waitedFor dependency: String) -> [String] {
                let inTime = answered[dependency]! - sent[packet]! < .seconds(5)
                return inTime ? ["dependency \(dependency) was rejected"]
                    : ["dependency \(dependency) was rejected", "dependency \(dependency) not received within 5 s"]
            }
            #expect(reasons[0] == "dependency A not received within 5 s")
            #expect(expected("C", waitedFor: "B").contains(reasons[1] ?? ""), "C: \(reasons[1] ?? "none"), B answered \(answered["B"]! - sent["C"]!) after C was sent")
            #expect(expected("D", waitedFor: "C").contains(reasons[2] ?? ""), "D: \(reasons[2] ?? "none"), C answered \(answered["C"]! - sent["D"]!) after D was sent")
        }
    }
}

private extension Sequence {
    func asyncMap<Mapped>(_ transform: (Element) async throws -> Mapped) async rethrows -> [Mapped] {
        var mapped: [Mapped] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
