import Foundation
import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

/// A refusal says what was refused, never what another tenant has: a row in someone else's scope
/// and a row that is not there are refused alike, and so are another user's device and no device.
@Suite("refusals that tell tenants nothing")
struct RefusalMessageTests {
    typealias Server = LocalSyncServer

    static let alice = TestUser("alice", scopes: ["user:alice", "team:t1"])
    static let mallory = TestUser("mallory", scopes: ["user:mallory"])

    /// The reply's text with `ids` (what the request named) replaced by one placeholder.
    static func anonymous(_ reply: HTTPReply, _ ids: String...) -> String {
        ids.reduce(reply.text) { $0.replacingOccurrences(of: $1, with: "ID") }
    }

    static func op(_ type: SyncOperationType, _ opId: String, _ dataId: String, _ data: JSONObject?) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: "tasks", type: type, data: data, timestamp: 5_000, scopeColumn: "owner")
    }

    /// Pairs of ops of one type, refused for their scope: the first on Alice's row `alices`, the
    /// second on a row the server does not have, `free`.
    static let pairs: [(String, SyncOperation, SyncOperation)] = [
        ("an update of another tenant's row, and one that would create a row in an ungranted scope",
         op(.update, "m-op", "alices", ["title": "mine"]), op(.update, "m-op", "free", ["title": "mine", "owner": "team:t1"])),
        ("an update moving another tenant's row into the token's scope, and an insert into an ungranted scope",
         op(.update, "m-op", "alices", ["owner": "user:mallory"]), op(.insert, "m-op", "free", ["owner": "team:zz"])),
        ("an insert over another tenant's row, and an insert into an ungranted scope",
         op(.insert, "m-op", "alices", ["owner": "user:mallory"]), op(.insert, "m-op", "free", ["owner": "team:t1"])),
        ("a delete of another tenant's row, and a delete of a row the server does not have naming no scope",
         op(.delete, "m-op", "alices", nil), op(.delete, "m-op", "free", nil)),
        ("a delete of another tenant's row, and one of a row the server does not have in an ungranted scope",
         op(.delete, "m-op", "alices", nil), op(.delete, "m-op", "free", ["owner": "team:t1"])),
    ]

    @Test("an op on a row in another tenant's scope and one that would put a row in an ungranted scope get the same answer",
          arguments: TestStore.allCases)
    func rowsAlike(store: TestStore) async throws {
        try await Server.withUsers(store: store) { server in
            let alice = try await server.register(Self.alice)
            let mallory = try await server.register(Self.mallory)
            let written = try await server.push(alice, packetId: "a1", dependency: nil, ops: [
                Self.op(.insert, "a-1", "alices", ["title": "alice's", "owner": "team:t1"]),
            ])
            #expect(written.body["applied"] == ["a-1"], "\(written)")
            for (index, (name, theirs, absent)) in Self.pairs.enumerated() {
                let notYours = try await server.push(mallory, packetId: "m\(index)-a", dependency: nil, ops: [theirs])
                let notThere = try await server.push(mallory, packetId: "m\(index)-b", dependency: nil, ops: [absent])
                #expect(notYours.status == 403 && notThere.status == 403, "\(name): \(notYours) / \(notThere)")
                #expect(notYours.body["error"]?["reason"] == "scope", "\(name): \(notYours)")
                #expect(notYours.body["error"]?["opId"] == "m-op", "\(name): \(notYours)")
                #expect(notYours.errorPath == "/ops/0", "\(name): \(notYours)")
                #expect(Self.anonymous(notYours, "alices") == Self.anonymous(notThere, "free"), "\(name)")
                for text in [notYours.text, notThere.text] {
                    #expect(!text.contains("team:t1") && !text.contains("team:zz") && !text.contains("user:mallory"), "\(name): \(text)")
                }
            }
        }
    }

    @Test("another user's device and a device that does not exist get the same answer, to a pull, a push and a packet's record",
          arguments: TestStore.allCases)
    func devicesAlike(store: TestStore) async throws {
        try await Server.withUsers(store: store) { server in
            let alices = try await server.register(Self.alice).id
            let missing = UUID().uuidString.lowercased()
            let requests: [(String, @Sendable (String) async throws -> HTTPReply)] = [
                ("pull", { device in try await server.get("/v1/pull?deviceId=\(device)&after=0", token: Self.mallory.token) }),
                ("push", { device in
                    try await server.post("/v1/push", token: Self.mallory.token, json: LocalSyncServer.packet(device, "p1", nil, []))
                }),
                ("packet", { device in try await server.get("/v1/packets/p1?deviceId=\(device)", token: Self.mallory.token) }),
            ]
            for (name, request) in requests {
                let notYours = try await request(alices)
                let notThere = try await request(missing)
                #expect(notYours.status == 403 && notThere.status == 403, "\(name): \(notYours) / \(notThere)")
                #expect(Self.anonymous(notYours, alices) == Self.anonymous(notThere, missing), "\(name)")
                #expect(!notYours.text.contains("alice") && !notYours.text.contains("mallory"), "\(name): \(notYours)")
            }
        }
    }
}
