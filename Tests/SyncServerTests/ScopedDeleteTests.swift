import Foundation
import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

/// A delete of a row the server does not have yet must name the scope the row would have, and is
/// checked as an insert into that scope: otherwise anyone could file a tombstone, stamped far in
/// the future, under an id its rightful owner would later insert, and that insert would be answered
/// `applied` and never appear.
@Suite("deletes of rows the server does not have")
struct ScopedDeleteTests {
    typealias Server = LocalSyncServer

    static let alice = TestUser("alice", scopes: ["user:alice", "team:t1"])
    static let bob = TestUser("bob", scopes: ["user:bob", "team:t1"])
    static let mallory = TestUser("mallory", scopes: ["user:mallory"])

    static var now: Double { Date().timeIntervalSince1970 * 1000 }
    /// Four minutes ahead: about the latest stamp the server takes (its skew allows five).
    static var farFuture: Double { now + 240_000 }

    static func delete(_ opId: String, _ dataId: String, scope: String?, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: "tasks", type: .delete, data: scope.map { ["owner": .string($0)] },
                      timestamp: timestamp, scopeColumn: "owner")
    }

    @Test("a delete of a row the server does not have, naming no scope, is refused (403, reason scope), and the row's owner inserts it later",
          arguments: TestStore.allCases)
    func unnamedScopeRefused(store: TestStore) async throws {
        try await Server.withUsers(store: store) { server in
            let mallory = try await server.register(Self.mallory)
            let alice = try await server.register(Self.alice)
            let predeleted = try await server.push(mallory, packetId: "m1", dependency: nil, ops: [Self.delete("m-op", "plan", scope: nil, at: Self.farFuture)])
            #expect(predeleted.status == 403, "\(predeleted)")
            #expect(predeleted.body["error"]?["reason"] == "scope")
            #expect(predeleted.body["error"]?["opId"] == "m-op")
            #expect(predeleted.errorPath == "/ops/0")

            let inserted = try await server.push(alice, packetId: "a1", dependency: nil, ops: [
                Server.scoped(Server.insert("a-op", "plan", ["title": "the plan", "owner": "team:t1"], at: Self.now)),
            ])
            #expect(inserted.body["applied"] == ["a-op"], "\(inserted)")
            let row = try await server.rows(alice)["plan"]
            #expect(row?["deleted"] == false, "\(String(describing: row))")
            #expect(row?["data"]?["title"] == "the plan")
        }
    }

    @Test("a delete of a row the server does not have names its scope and is checked like an insert: refused outside the token's scopes, a tombstone of that scope within them",
          arguments: TestStore.allCases)
    func namedScopeChecked(store: TestStore) async throws {
        try await Server.withUsers(store: store) { server in
            let mallory = try await server.register(Self.mallory)
            let alice = try await server.register(Self.alice)
            let bob = try await server.register(Self.bob)
            let predeleted = try await server.push(mallory, packetId: "m1", dependency: nil, ops: [Self.delete("m-op", "plan", scope: "team:t1", at: Self.farFuture)])
            #expect(predeleted.status == 403, "\(predeleted)")
            #expect(predeleted.body["error"]?["reason"] == "scope")
            #expect(predeleted.body["error"]?["opId"] == "m-op")
            let inserted = try await server.push(alice, packetId: "a1", dependency: nil, ops: [
                Server.scoped(Server.insert("a-1", "plan", ["title": "the plan", "owner": "team:t1"], at: Self.now)),
            ])
            #expect(inserted.body["applied"] == ["a-1"], "\(inserted)")
            #expect(try await server.rows(alice)["plan"]?["deleted"] == false)

            // Alice deletes a row the server never had, in her team's scope: her team sees the tombstone, nobody else.
            let deleted = try await server.push(alice, packetId: "a2", dependency: "a1", ops: [Self.delete("a-2", "draft", scope: "team:t1", at: Self.now)])
            #expect(deleted.body["applied"] == ["a-2"], "\(deleted)")
            #expect(try await server.pulledOpIds(bob) == ["a-1", "a-2"])
            #expect(try await server.rows(bob)["draft"]?["deleted"] == true)
            #expect(try await server.pulledOpIds(mallory) == [])
            #expect(try await server.rows(mallory)["draft"] == nil)
            // A later op on the tombstone is checked against its scope.
            let revived = try await server.push(mallory, packetId: "m2", dependency: nil, ops: [
                Server.scoped(Server.insert("m-2", "draft", ["owner": "user:mallory"], at: Self.farFuture)),
            ])
            #expect(revived.status == 403, "\(revived)")

            // A delete of a row the server has needs no data, as before.
            let plain = try await server.push(alice, packetId: "a3", dependency: "a2", ops: [Self.delete("a-3", "plan", scope: nil, at: Self.now)])
            #expect(plain.body["applied"] == ["a-3"], "\(plain)")
            #expect(try await server.rows(bob)["plan"]?["deleted"] == true)
        }
    }
}
