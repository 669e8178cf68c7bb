import CurlTransport
import Foundation
import HostTesting
import JSON
import SyncAuth
import SystemIO
import Testing

/// Sync for many users, through the real path: devices are the storage and sync services as the
/// bridge calls them, the server a real one with auth on loopback, tokens signed as an app's auth
/// server signs them.
@Suite("sync: users, scopes, backfill and compaction", .serialized)
struct SyncScopeTests {
    static let secret = Array("the scope tests' shared secret".utf8)
    static let signer = TokenSigner(secret: secret)

    static func token(_ user: String, _ scopes: [String], ttl: Int64 = 600) -> String {
        let now = Int64(Date().timeIntervalSince1970)
        return signer.sign(TokenClaims(subject: user, scopes: scopes, expiresAt: now + ttl, issuedAt: now))
    }

    static let alice = token("alice", ["user:alice", "team:t1"])
    static let bob = token("bob", ["user:bob", "team:t1"])

    /// Runs `body` with a server with auth and fresh devices, removing all of it afterwards.
    func withServer(_ store: TestStore, _ body: (LocalSyncServer) async throws -> Void) async throws {
        let server = try await LocalSyncServer.start(store: store, tokenVerifier: TokenVerifier(secret: Self.secret))
        do { try await body(server) } catch {
            await server.finish()
            throw error
        }
        await server.finish()
    }

    func device(_ name: String, _ server: LocalSyncServer, token: String) async throws -> SyncDevice {
        let device = try SyncDevice(name)
        try await device.start(server: server.base, token: token)
        return device
    }

    func ids(_ device: SyncDevice) async throws -> [String] { try await device.rows("board").keys.sorted() }

    func raw(_ server: LocalSyncServer, _ method: String, _ path: String, token: String?, body: JSONValue? = nil) async throws -> (status: Int, body: JSONValue) {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let request = TransferRequest(url: server.base + path, method: method, headers: headers, body: body.map { JSONWriter.bytes($0) })
        let response = try await CurlClient.shared.perform(request)
        return (response.status, (try? JSONParser.parse(response.body)) ?? .null)
    }

    @Test("two users with private and shared scopes on three devices: each device holds exactly its scopes' rows", arguments: TestStore.allCases)
    func privateAndShared(store: TestStore) async throws {
        try await withServer(store) { server in
            let phone = try await device("alice-phone", server, token: Self.alice)
            let laptop = try await device("alice-laptop", server, token: Self.alice)
            let bobs = try await device("bob-phone", server, token: Self.bob)
            defer { [phone, laptop, bobs].forEach { $0.remove() } }
            try await phone.insert("board", [["id": "a1", "title": "alice's", "owner": "user:alice"], ["id": "t1", "title": "team", "owner": "team:t1"],
                                             ["id": "a2", "title": "alice's diary", "owner": "user:alice"]])
            try await bobs.insert("board", [["id": "b1", "title": "bob's", "owner": "user:bob"], ["id": "t2", "title": "team too", "owner": "team:t1"]])
            for device in [phone, bobs, laptop, phone] { try await device.run() }
            #expect(try await ids(phone) == ["a1", "a2", "t1", "t2"])
            #expect(try await ids(laptop) == ["a1", "a2", "t1", "t2"])
            #expect(try await ids(bobs) == ["b1", "t1", "t2"])

            // A row moved from the team into Alice's scope leaves Bob; one moved from hers into the
            // team reaches him whole, though he never saw the op that created it.
            try await phone.update("board", where: ["id": "t1"], set: ["owner": "user:alice"])
            try await phone.update("board", where: ["id": "a1"], set: ["owner": "team:t1"])
            try await phone.run()
            let moved = try await bobs.run()
            #expect(moved["evicted"] == 1)
            #expect(try await ids(bobs) == ["a1", "b1", "t2"])
            #expect(try await bobs.rows("board")["a1"]?["title"] == "alice's")

            // Whatever a device of Bob's asks for, nothing of Alice's private rows comes back: the
            // move of t1 out of the team reaches him (so that he drops it), but no insert or
            // change made while a row was hers.
            let bobId = try #require(try bobs.replica.connection()?.deviceId)
            for (after, limit) in [(0, 1), (0, 1000), (1, 2), (3, 10_000)] {
                let page = try await raw(server, "GET", "/v1/pull?deviceId=\(bobId)&after=\(after)&limit=\(limit)", token: Self.bob)
                #expect(page.status == 200)
                for op in page.body["ops"]?.arrayValue ?? [] {
                    let owner = op["data"]?["owner"]?.stringValue
                    #expect(!(op["type"] == "insert" && owner == "user:alice"), "bob pulled \(op)")
                    #expect(op["dataId"] != "a2", "bob pulled \(op)")
                    if op["dataId"] == "a1" { #expect(op["type"] == "insert" && owner == "team:t1", "a1 reaches bob only as the team row it became: \(op)") }
                }
            }
            let aliceId = try #require(try phone.replica.connection()?.deviceId)
            let stolen = try await raw(server, "GET", "/v1/pull?deviceId=\(aliceId)&after=0", token: Self.bob)
            #expect(stolen.status == 403)
            let snapshot = try await raw(server, "GET", "/v1/snapshot?deviceId=\(bobId)&part=scope:user:alice", token: Self.bob)
            #expect(snapshot.status == 403)
        }
    }

    @Test("no token, an expired one, a wrong key, alg none and another user's device are refused with 401 or 403", arguments: TestStore.allCases)
    func refusals(store: TestStore) async throws {
        try await withServer(store) { server in
            let phone = try await device("alice-phone", server, token: Self.alice)
            defer { phone.remove() }
            let aliceId = try #require(try phone.replica.connection()?.deviceId)
            let none = "eyJhbGciOiJub25lIn0." + Array(JSONWriter.bytes(["sub": "alice", "exp": 9_999_999_999])).base64URL + "."
            let cases: [(String?, String, Int)] = [
                (nil, "missing", 401), (Self.token("alice", ["user:alice"], ttl: -10), "expired", 401),
                (TokenSigner(secret: Array("somebody else's secret!!".utf8)).sign(TokenClaims(subject: "alice", scopes: [], expiresAt: 9_999_999_999)), "signature", 401),
                (none, "algorithm", 401),
            ]
            for (token, reason, status) in cases {
                let register = try await raw(server, "POST", "/v1/devices", token: token, body: ["name": "x"])
                #expect(register.status == status && register.body["error"]?["reason"]?.stringValue == reason, "register with \(reason): \(register)")
                let pull = try await raw(server, "GET", "/v1/pull?deviceId=\(aliceId)&after=0", token: token)
                #expect(pull.status == status && pull.body["error"]?["reason"]?.stringValue == reason, "pull with \(reason): \(pull)")
            }
            let push: JSONValue = ["deviceId": .string(aliceId), "packetId": "p-x", "dependencyIdentifier": nil, "ops": []]
            #expect(try await raw(server, "POST", "/v1/push", token: Self.bob, body: push).status == 403)
        }
    }

    /// A stamp a minute ahead: with the 100,000 ms a test adds to it, within the five minutes ahead
    /// of its clock that the server takes.
    static let later = ((Date().timeIntervalSince1970 + 60) * 1000).rounded()

    @Test("a push into, out of or across an ungranted scope is refused whole: 403, reason scope, nothing applied", arguments: TestStore.allCases)
    func scopeRefusals(store: TestStore) async throws {
        try await withServer(store) { server in
            let phone = try await device("alice-phone", server, token: Self.alice)
            let bobs = try await device("bob-phone", server, token: Self.bob)
            defer { [phone, bobs].forEach { $0.remove() } }
            try await phone.insert("board", [["id": "a1", "title": "alice's", "owner": "user:alice"], ["id": "t1", "title": "team", "owner": "team:t1"]])
            try await phone.run()
            let before = try await server.server.store.snapshot()
            let bobId = try #require(try bobs.replica.connection()?.deviceId)
            func op(_ id: String, _ type: String, _ data: JSONValue, dataId: String) -> JSONValue {
                ["opId": .string(id), "dataId": .string(dataId), "table": "board", "type": .string(type), "data": data, "timestamp": .number(Self.later), "scopeColumn": "owner"]
            }
            let attempts: [(String, JSONValue)] = [
                ("an insert into Alice's scope", op("x1", "insert", ["title": "mine now", "owner": "user:alice"], dataId: "x1")),
                ("an update of Alice's row", op("x2", "update", ["title": "hacked"], dataId: "a1")),
                ("a team row moved into Alice's scope", op("x3", "update", ["owner": "user:alice"], dataId: "t1")),
                ("a batch without its scope", op("x4", "batch", ["where": [:], "set": ["title": "all mine"]], dataId: "*")),
                ("a batch on Alice's scope", op("x5", "batch", ["where": ["owner": "user:alice"], "set": ["title": "x"]], dataId: "*")),
                ("a batch moving team rows out", op("x6", "batch", ["where": ["owner": "team:t1"], "set": ["owner": "user:bob"]], dataId: "*")),
            ]
            for (index, (what, attempt)) in attempts.enumerated() {
                let packet: JSONValue = ["deviceId": .string(bobId), "packetId": .string("bad-\(index)"), "dependencyIdentifier": nil,
                                         "ops": [op("ok-\(index)", "insert", ["title": "fine", "owner": "user:bob"], dataId: "ok-\(index)"), attempt]]
                let answer = try await raw(server, "POST", "/v1/push", token: Self.bob, body: packet)
                #expect(answer.status == 403 && answer.body["error"]?["reason"] == "scope", "\(what): \(answer)")
                #expect(answer.body["error"]?["opId"] == .string("x\(index + 1)"), "\(what): the answer names the refused op: \(answer)")
            }
            #expect(try await server.server.store.snapshot() == before)
            // Through the client: the op fails with reason scope in sync.status; Alice's rows stay hers.
            try await bobs.insert("board", [["id": "x9", "title": "into alice's", "owner": "user:alice"]])
            try await bobs.run()
            let failed = try await bobs.sync("status")["failed"]?.arrayValue ?? []
            #expect(failed.count == 1 && failed.first?["error"]?.stringValue?.hasPrefix("scope: ") == true, "\(failed)")
            #expect(try await ids(bobs) == ["t1"], "the refused insert no longer shows in Bob's board")
            try await phone.run()
            #expect(try await ids(phone) == ["a1", "t1"])
        }
    }

    @Test("a refused op fails alone: the rest of its packet is applied, its row shows the server's state, and a retry once the scope is granted sends it", arguments: TestStore.allCases)
    func refusedOpFailsAlone(store: TestStore) async throws {
        try await withServer(store) { server in
            let phone = try await device("alice-phone", server, token: Self.alice)
            let bobs = try await device("bob-phone", server, token: Self.bob)
            defer { [phone, bobs].forEach { $0.remove() } }
            try await phone.insert("board", [["id": "t1", "title": "team", "owner": "team:t1"]])
            try await phone.run()
            try await bobs.run()
            // Alice takes the card private while Bob, not yet told, edits it and adds one of his own.
            try await phone.update("board", where: ["id": "t1"], set: ["owner": "user:alice"])
            try await phone.run()
            try await bobs.update("board", where: ["id": "t1"], set: ["title": "bob's edit"])
            try await bobs.insert("board", [["id": "b1", "title": "bob's", "owner": "user:bob"]])
            let totals = try await bobs.run()
            #expect(totals["failed"] == 1 && totals["pushed"] == 1, "\(totals)")
            let status = try await bobs.sync("status")
            let failed = status["failed"]?.arrayValue ?? []
            #expect(failed.count == 1 && failed.first?["dataId"] == "t1" && failed.first?["error"]?.stringValue?.hasPrefix("scope: ") == true, "\(failed)")
            #expect(status["pending"] == 0 && status["acknowledged"] == 1, "b1 waits for the pull that brings it back: \(status)")
            #expect(try await ids(bobs) == ["b1"], "t1 left Bob's board with its scope; his edit waits in sync.status")
            try await bobs.run()
            #expect(try await bobs.sync("status")["acknowledged"] == 0)
            #expect(try await server.liveRows("board")["t1"]?["title"] == "team")
            #expect(try await server.liveRows("board")["b1"] != nil)

            // Granted Alice's scope, Bob retries: the edit counts in the row again and goes through.
            _ = try await bobs.sync("connect", ["server": .string(server.base), "token": .string(Self.token("bob", ["user:bob", "team:t1", "user:alice"]))])
            #expect(try await bobs.sync("retry")["requeued"] == 1)
            try await bobs.run()
            #expect(try await server.liveRows("board")["t1"]?["title"] == "bob's edit")
            #expect(try await bobs.rows("board")["t1"]?["title"] == "bob's edit")
            #expect(try await bobs.sync("status")["failed"] == [])
        }
    }

    @Test("a scope granted after its rows were written arrives on the next run; a revoked one disappears locally", arguments: TestStore.allCases)
    func backfillAndRevoke(store: TestStore) async throws {
        try await withServer(store) { server in
            let phone = try await device("alice-phone", server, token: Self.token("alice", ["user:alice", "team:t1", "team:t2"]))
            let bobs = try await device("bob-phone", server, token: Self.bob)
            defer { [phone, bobs].forEach { $0.remove() } }
            try await phone.insert("board", (0..<30).map { ["id": .string("t2-\($0)"), "title": "t2", "owner": "team:t2"] } + [["id": "t1-a", "title": "t1", "owner": "team:t1"]])
            try await phone.run()
            try await bobs.run()
            #expect(try await ids(bobs) == ["t1-a"])
            try await phone.update("board", where: ["id": "t2-0"], set: ["title": "changed before the grant"])
            try await phone.run()

            _ = try await bobs.sync("connect", ["server": .string(server.base), "token": .string(Self.token("bob", ["user:bob", "team:t1", "team:t2"]))])
            let granted = try await bobs.run()
            #expect(granted["backfilled"] == 30)
            #expect(try await ids(bobs).count == 31)
            #expect(try await bobs.rows("board")["t2-0"]?["title"] == "changed before the grant")
            // After the grant, the log brings the scope's changes as usual.
            try await phone.update("board", where: ["id": "t2-1"], set: ["title": "after"])
            try await phone.run()
            try await bobs.run()
            #expect(try await bobs.rows("board")["t2-1"]?["title"] == "after")

            _ = try await bobs.sync("connect", ["server": .string(server.base), "token": .string(Self.token("bob", ["user:bob", "team:t2"]))])
            let revoked = try await bobs.run()
            #expect(revoked["evicted"] == 1)
            #expect(try await ids(bobs).allSatisfy { $0.hasPrefix("t2-") })
            #expect(try await bobs.sync("status")["pending"] == 0, "eviction journals nothing")
            try await phone.run()
            #expect(try await ids(phone).contains("t1-a"), "the revoked rows stay on the server and on Alice's devices")
        }
    }

    @Test("compaction keeps the log bounded under 10 rounds of updates to 100 rows; a device offline across it converges from a snapshot",
          arguments: TestStore.allCases)
    func compaction(store: TestStore) async throws {
        // 100k updates on SQLite; 10k on PostgreSQL, whose store makes a few round trips per op
        // under its write lock, so that the test takes seconds rather than minutes there.
        let perRound = store == .sqlite ? 10_000 : 1_000
        try await withServer(store) { server in
            let writer = try await device("alice-phone", server, token: Self.alice)
            let offline = try await device("alice-laptop", server, token: Self.alice)
            defer { [writer, offline].forEach { $0.remove() } }
            try await writer.insert("board", (0..<100).map { ["id": .string("r\($0)"), "title": "0", "owner": "team:t1"] })
            try await writer.run()
            try await offline.run()
            let store = server.server.store
            let writerId = try #require(try writer.replica.connection()?.deviceId)
            var largest = 0
            // 10 rounds of updates, pushed straight to the server in one packet each (the client
            // would send them the same way), each followed by the writer's pull and a compaction.
            var previous: String?
            for round in 0..<10 {
                let ops: [JSONValue] = (0..<perRound).map { i in
                    ["opId": .string("u-\(round)-\(i)"), "dataId": .string("r\(i % 100)"), "table": "board", "type": "update",
                     "data": ["title": .string("\(round * perRound + i)")], "timestamp": .number(Self.later + Double(round * perRound + i)), "scopeColumn": "owner"]
                }
                let packet: JSONValue = ["deviceId": .string(writerId), "packetId": .string("bulk-\(round)"),
                                         "dependencyIdentifier": previous.map(JSONValue.string) ?? .null, "ops": .array(ops)]
                previous = "bulk-\(round)"
                let answer = try await raw(server, "POST", "/v1/push", token: Self.alice, body: packet)
                #expect(answer.status == 200, "\(answer.body)")
                try await writer.run()
                // The offline laptop last pulled before the updates: with a retention of zero and the
                // laptop counted away (seen more than 0 s ago), only the writer holds the log back.
                _ = try await store.compact(now: SystemClock().wallTime + .seconds(1), retain: .zero)
                largest = max(largest, try await server.logSize())
            }
            // Bound: what the slowest active device has not pulled, here at most one packet.
            #expect(largest <= perRound, "the op log held \(largest) entries")
            let caughtUp = try await offline.run()
            #expect(caughtUp["backfilled"] == 100)
            let rows = try await offline.rows("board")
            #expect(rows.count == 100 && rows["r99"]?["title"] == .string("\(10 * perRound - 1)"), "\(rows["r99"] ?? [:])")
            #expect(try await offline.rows("board") == writer.rows("board"))
        }
    }
}

private extension Array where Element == UInt8 {
    var base64URL: String {
        Data(self).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
