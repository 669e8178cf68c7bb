import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

/// An opId is its device's: a retry of it is skipped, while the same id from another device is
/// another op. Deduplicated across every user, anyone who learned a victim's next opId could push
/// it first and have the victim's op answered as a duplicate, never applied.
@Suite("op ids per device")
struct OpIdTests {
    typealias Server = LocalSyncServer

    static let alice = TestUser("alice", scopes: ["user:alice"])
    static let mallory = TestUser("mallory", scopes: ["user:mallory"])

    @Test("an opId another user pushed first does not suppress the op of the device that uses it; a device's own retry is still a duplicate",
          arguments: TestStore.allCases)
    func perDevice(store: TestStore) async throws {
        try await Server.withUsers(store: store) { server in
            let alices = try await server.register(Self.alice)
            let alicesLaptop = try await server.register(Self.alice)
            let mallorys = try await server.register(Self.mallory)
            let squatted = try await server.push(mallorys, packetId: "m1", dependency: nil, ops: [Server.insert("op-next", "junk", [:], at: 1)])
            #expect(squatted.body["applied"] == ["op-next"], "\(squatted)")

            let pushed = try await server.push(alices, packetId: "a1", dependency: nil, ops: [Server.insert("op-next", "plan", ["title": "the plan"], at: 1)])
            #expect(pushed.body["applied"] == ["op-next"], "\(pushed)")
            #expect(pushed.body["duplicates"] == [], "\(pushed)")
            #expect(try await server.rows(alices)["plan"]?["data"]?["title"] == "the plan")

            let retried = try await server.push(alices, packetId: "a2", dependency: "a1", ops: [
                Server.insert("op-next", "plan", ["title": "again"], at: 2), Server.update("op-2", "plan", ["done": true], at: 3),
                Server.update("op-2", "plan", ["done": false], at: 4),
            ])
            #expect(retried.body["applied"] == ["op-2"], "\(retried)")
            #expect(retried.body["duplicates"] == ["op-next", "op-2"], "\(retried)")
            let row = try await server.rows(alices)["plan"]
            #expect(row?["data"] == ["title": "the plan", "done": true], "\(String(describing: row))")

            // Another device of the same user is another device.
            let laptop = try await server.push(alicesLaptop, packetId: "l1", dependency: nil, ops: [Server.update("op-2", "plan", ["seen": true], at: 5)])
            #expect(laptop.body["applied"] == ["op-2"], "\(laptop)")
            #expect(try await server.pulledOpIds(alicesLaptop) == ["op-next", "op-2", "op-2"])
            #expect(try await server.pulledOpIds(mallorys) == ["op-next"])
        }
    }
}
