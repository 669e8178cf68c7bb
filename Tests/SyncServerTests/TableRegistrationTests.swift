import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

/// A table's scope column is fixed by the first op of each user, for that user's devices: one
/// tenant syncing `projects` without a scope column must not lock every other tenant out of
/// syncing it with one.
@Suite("table shapes per user")
struct TableRegistrationTests {
    typealias Server = LocalSyncServer

    static let alice = TestUser("alice", scopes: ["user:alice"])
    static let bob = TestUser("bob", scopes: ["user:bob", "team:t1"])

    static func project(_ opId: String, _ dataId: String, _ data: JSONObject, scopeColumn: String?) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: "projects", type: .insert, data: data, timestamp: 1_000, scopeColumn: scopeColumn)
    }

    @Test("one user's first op on a table fixes its scope column for that user's devices alone", arguments: TestStore.allCases)
    func perUser(store: TestStore) async throws {
        try await Server.withUsers(store: store) { server in
            let alices = try await server.register(Self.alice)
            let alicesLaptop = try await server.register(Self.alice)
            let bobs = try await server.register(Self.bob)
            let bobsLaptop = try await server.register(Self.bob)

            let unscoped = try await server.push(alices, packetId: "a1", dependency: nil, ops: [Self.project("a-1", "p1", ["name": "alice's"], scopeColumn: nil)])
            #expect(unscoped.body["applied"] == ["a-1"], "\(unscoped)")
            let scoped = try await server.push(bobs, packetId: "b1", dependency: nil, ops: [
                Self.project("b-1", "p1", ["name": "bob's", "owner": "team:t1"], scopeColumn: "owner"),
            ])
            #expect(scoped.status == 200, "\(scoped)")
            #expect(scoped.body["applied"] == ["b-1"], "\(scoped)")

            // Each user's shape holds for all of that user's devices.
            let alicesOther = try await server.push(alicesLaptop, packetId: "a2", dependency: nil, ops: [
                Self.project("a-2", "p2", ["name": "x", "owner": "user:alice"], scopeColumn: "owner"),
            ])
            #expect(alicesOther.status == 400, "\(alicesOther)")
            #expect(alicesOther.errorPath == "/ops/0/scopeColumn", "\(alicesOther)")
            let bobsOther = try await server.push(bobsLaptop, packetId: "b2", dependency: nil, ops: [Self.project("b-2", "p2", ["name": "y"], scopeColumn: nil)])
            #expect(bobsOther.status == 400, "\(bobsOther)")
            #expect(bobsOther.errorPath == "/ops/0/scopeColumn", "\(bobsOther)")

            // Two rows with one id, one in Alice's partition, one in Bob's team's scope: neither sees the other's.
            #expect(try await server.rows(alicesLaptop, table: "projects")["p1"]?["data"]?["name"] == "alice's")
            #expect(try await server.rows(bobsLaptop, table: "projects")["p1"]?["data"]?["name"] == "bob's")
            #expect(try await server.pulledOpIds(alicesLaptop) == ["a-1"])
            #expect(try await server.pulledOpIds(bobsLaptop) == ["b-1"])
        }
    }
}
