import Foundation
import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

/// Scopes and users are their bytes, as the database compares them: Swift's `String ==` holds
/// "team:caf\u{E9}" (precomposed) equal to "team:cafe\u{301}" (a combining accent) and
/// "\u{212A}ate" (KELVIN SIGN) equal to "Kate", and neither may open one tenant's rows or devices
/// to the other.
@Suite("scopes and users compared as bytes")
struct ByteExactTests {
    typealias Server = LocalSyncServer

    static let composed = "team:caf\u{E9}"
    static let decomposed = "team:cafe\u{301}"

    static func insert(_ opId: String, _ dataId: String, scope: String) -> SyncOperation {
        Server.scoped(Server.insert(opId, dataId, ["title": .string(opId), "owner": .string(scope)], at: 1_000))
    }

    /// `text` with every byte but ASCII letters and digits percent-encoded, for a query.
    static func percentEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            let ascii = UnicodeScalar(byte)
            return byte < 0x80 && (("a"..."z").contains(ascii) || ("A"..."Z").contains(ascii) || ("0"..."9").contains(ascii))
                ? String(Character(ascii)) : String(format: "%%%02X", byte)
        }.joined()
    }

    /// The owner's scope and the intruder's, one spelling each, both ways round.
    static let spellings: [(owner: String, intruder: String)] = [(composed, decomposed), (decomposed, composed)]

    @Test("a token granting one spelling of a scope neither reads nor writes the rows of the other", arguments: TestStore.allCases)
    func scopeSpellings(store: TestStore) async throws {
        for (index, spelling) in Self.spellings.enumerated() {
            try await Server.withUsers(store: store) { server in
                let owner = try await server.register(TestUser("owner", scopes: [spelling.owner]))
                let intruder = try await server.register(TestUser("intruder", scopes: [spelling.intruder]))
                let label = "case \(index)"
                // A pull held by the intruder while the owner writes: woken, it reads the commit from memory.
                let held = Task { try await server.get("/v1/pull?deviceId=\(intruder.id)&after=0&waitMs=1500", token: intruder.token) }
                try await Task.sleep(for: .milliseconds(300))
                let written = try await server.push(owner, packetId: "o1", dependency: nil, ops: [Self.insert("o-1", "row", scope: spelling.owner)])
                #expect(written.body["applied"] == ["o-1"], "\(label): \(written)")
                let heldReply = try await held.value
                #expect(heldReply.body["ops"] == [], "\(label): a held pull read \(heldReply)")
                let again = try await server.get("/v1/pull?deviceId=\(intruder.id)&after=0&waitMs=300", token: intruder.token)
                #expect(again.body["ops"] == [], "\(label): a held pull read \(again)")
                #expect(try await server.pulledOpIds(intruder) == [], "\(label)")
                #expect(try await server.rows(intruder).isEmpty, "\(label)")
                let part = try await server.get("/v1/snapshot?deviceId=\(intruder.id)&part=scope:\(Self.percentEncoded(spelling.owner))",
                                                token: intruder.token)
                #expect(part.status == 403, "\(label): \(part)")

                let writes: [(String, SyncOperation)] = [
                    ("an update of the owner's row", Server.scoped(Server.update("i-1", "row", ["title": "mine"], at: 2_000))),
                    ("a delete of the owner's row", Server.scoped(Server.delete("i-2", "row", at: 2_000))),
                    ("an insert into the owner's scope", Self.insert("i-3", "other", scope: spelling.owner)),
                ]
                for (offset, (name, op)) in writes.enumerated() {
                    let reply = try await server.push(intruder, packetId: "i\(offset)", dependency: nil, ops: [op])
                    #expect(reply.status == 403, "\(label), \(name): \(reply)")
                    #expect(reply.body["error"]?["reason"] == "scope", "\(label), \(name): \(reply)")
                }
                let row = try await server.rows(owner)["row"]
                #expect(row?["data"]?["title"] == "o-1" && row?["deleted"] == false, "\(label): \(String(describing: row))")
                #expect(try await server.rows(owner)["other"] == nil, "\(label)")
                // The intruder's own spelling is the intruder's: written and read there.
                let own = try await server.push(intruder, packetId: "i-own", dependency: nil, ops: [Self.insert("i-4", "own", scope: spelling.intruder)])
                #expect(own.body["applied"] == ["i-4"], "\(label): \(own)")
                #expect(try await server.pulledOpIds(intruder) == ["i-4"], "\(label)")
                #expect(try await server.pulledOpIds(owner) == ["o-1"], "\(label)")
            }
        }
    }

    @Test("a token whose sub is \u{212A}ate (KELVIN SIGN) cannot reach Kate's device", arguments: TestStore.allCases)
    func userSpellings(store: TestStore) async throws {
        try await Server.withUsers(store: store) { server in
            let kate = TestUser("Kate", scopes: ["user:Kate"])
            let kelvin = TestUser("\u{212A}ate", scopes: ["user:\u{212A}ate"])
            let kates = try await server.register(kate)
            let written = try await server.push(kates, packetId: "k1", dependency: nil, ops: [Server.insert("k-1", "diary", ["text": "dear diary"], at: 1)])
            #expect(written.body["applied"] == ["k-1"], "\(written)")

            let impostor = TestDevice(id: kates.id, token: kelvin.token)
            let pull = try await server.pull(impostor)
            #expect(pull.status == 403, "\(pull)")
            let push = try await server.push(impostor, packetId: "x1", dependency: "k1", ops: [Server.insert("x-1", "diary", ["text": "forged"], at: 2)])
            #expect(push.status == 403, "\(push)")
            let record = try await server.packetState(impostor, "k1")
            #expect(record.status == 403, "\(record)")
            let snapshot = try await server.get("/v1/snapshot?deviceId=\(kates.id)", token: kelvin.token)
            #expect(snapshot.status == 403, "\(snapshot)")

            #expect(try await server.pulledOpIds(kates) == ["k-1"])
            #expect(try await server.rows(kates)["diary"]?["data"]?["text"] == "dear diary")
        }
    }
}
