import HostTesting
import JSON
import SyncProtocol
import Testing

/// The sync server's answers compressed when a device asks (`Accept-Encoding`), decoded by
/// python3's zlib; a held pull is no later for it.
@Suite("sync server compression")
struct CompressionTests {
    typealias Server = LocalSyncServer

    /// `count` inserts of a task row such as an app writes.
    static func tasks(_ prefix: String, count: Int) -> [SyncOperation] {
        (0..<count).map { index -> SyncOperation in
            let order: Int = 1000 + index * 7
            let day: Int = 10 + index % 18
            let row: JSONObject = ["title": .string("Call the supplier about order \(order)"), "done": .bool(index % 3 == 0),
                                   "priority": .number(Double(index % 4)), "due": .string("2026-12-\(day)")]
            let timestamp = Double(1_780_000_000_000 + index * 1000)
            return Server.insert("\(prefix)-\(index)", "task-\(prefix)-\(index)", row, at: timestamp)
        }
    }

    @Test("a pull page asked for in gzip comes back gzip-encoded and decodes to exactly the plain page; identity, no header and q=0 get the plain page")
    func pullIsCompressedWhenAsked() async throws {
        try await Server.with { server in
            let device = try await server.register()
            #expect(try await server.push(device, packetId: "p1", dependency: nil, ops: Self.tasks("a", count: 100)).status == 200)
            let uri = "/v1/pull?deviceId=\(device.id)&after=0"
            let plain = try await server.get(uri, token: device.token)
            #expect(plain.body["ops"]?.arrayValue?.count == 100, "\(plain)")
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")
            let gzip = try await server.get(uri, token: device.token, acceptEncoding: "gzip, deflate")
            #expect(gzip.headers[.contentEncoding] == "gzip")
            #expect(gzip.headers[.contentLength] == String(gzip.raw.count))
            #expect(try ContentCoding.decode(gzip.raw, coding: "gzip") == plain.raw)
            #expect(gzip.raw.count * 3 < plain.raw.count, "gzip \(gzip.raw.count) of \(plain.raw.count) bytes")
            for field in ["identity", "gzip;q=0", "*;q=0"] {
                let reply = try await server.get(uri, token: device.token, acceptEncoding: field)
                #expect(reply.headers[.contentEncoding] == nil, "\(field)")
                #expect(reply.raw == plain.raw, "\(field)")
            }
            // A page of one op, and the health check, are too small to be worth it.
            for small in [try await server.get("/v1/pull?deviceId=\(device.id)&after=0&limit=1", token: device.token, acceptEncoding: "gzip"),
                          try await server.get("/v1/health", token: nil, acceptEncoding: "gzip")] {
                #expect(small.status == 200, "\(small)")
                #expect(small.headers[.contentEncoding] == nil, "\(small)")
            }
            print("sync server on the wire: a pull page of 100 ops \(plain.raw.count) bytes, gzip \(gzip.raw.count) "
                + "(\(Int((Double(gzip.raw.count) / Double(plain.raw.count) * 100).rounded()))%)")
        }
    }

    @Test("a held pull asked for in gzip is woken by a push, well before its waitMs, with its page compressed")
    func heldPullWakesCompressed() async throws {
        try await Server.with { server in
            let writer = try await server.register(name: "writer")
            let reader = try await server.register(name: "reader")
            let pull = Task {
                let reply = try await server.get("/v1/pull?deviceId=\(reader.id)&after=0&waitMs=60000", token: reader.token, acceptEncoding: "gzip")
                return (reply, ContinuousClock.now)
            }
            let held = try await eventually { server.server.heldPulls == 1 }
            #expect(held, "the server holds \(server.server.heldPulls) pulls, expected 1")
            #expect(try await server.push(writer, packetId: "p1", dependency: nil, ops: Self.tasks("b", count: 40)).status == 200)
            let pushAnswered = ContinuousClock.now
            let (reply, answered) = try await pull.value
            #expect(reply.status == 200)
            #expect(reply.headers[.contentEncoding] == "gzip")
            let page = try JSONParser.parse(try ContentCoding.decode(reply.raw, coding: "gzip"))
            #expect(page["ops"]?.arrayValue?.count == 40)
            // Woken by the commit, not by the 60 s wait (generous: not a timing test).
            #expect(answered - pushAnswered < .seconds(30))
        }
    }
}
