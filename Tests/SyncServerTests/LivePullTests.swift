import Foundation
import GRDB
import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

/// Long-polls: `GET /v1/pull?...&waitMs=N` held until an op the device may see commits, N ms
/// pass, or the server shuts down. Assertions are about order (the pull had not answered before
/// the push; it answered with the op after), with generous upper bounds only.
@Suite("live pulls")
struct LivePullTests {
    typealias Server = LocalSyncServer

    /// A pull of `device` after `after` holding up to `waitMs`, started now; its reply, and when it came.
    static func heldPull(_ server: LocalSyncServer, _ device: TestDevice, after: Int = 0, waitMs: Int)
        -> Task<(reply: HTTPReply, at: ContinuousClock.Instant), any Error> {
        Task {
            let reply = try await server.get("/v1/pull?deviceId=\(device.id)&after=\(after)&waitMs=\(waitMs)", token: device.token)
            return (reply, ContinuousClock.now)
        }
    }

    /// Waits until `server` holds `count` pulls open.
    static func holding(_ server: Server, _ count: Int) async throws {
        let held = try await eventually { server.server.heldPulls == count }
        guard held else { throw TestFailure("the server holds \(server.server.heldPulls) pulls, expected \(count)") }
    }

    @Test("a pull with waitMs that finds nothing answers after about waitMs, with an empty page at its cursor", arguments: TestStore.allCases)
    func emptyPullWaits(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            let started = ContinuousClock.now
            let (reply, answered) = try await Self.heldPull(server, device, after: 0, waitMs: 400).value
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.body["ops"] == [])
            #expect(reply.body["cursor"] == 0)
            #expect(answered - started >= .milliseconds(400))
            #expect(answered - started < .seconds(40))
            #expect(server.server.heldPulls == 0)
        }
    }

    @Test("a pull with waitMs answers at once when ops are already after its cursor", arguments: TestStore.allCases)
    func pullWithOpsAnswersAtOnce(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let device = try await server.register()
            #expect(try await server.push(device, packetId: "p1", dependency: nil, ops: [Server.insert("op-1", "t1", ["x": 1], at: 1)]).status == 200)
            let started = ContinuousClock.now
            let (reply, answered) = try await Self.heldPull(server, device, after: 0, waitMs: 60_000).value
            #expect(reply.body["ops"]?.arrayValue?.compactMap { $0["opId"]?.stringValue } == ["op-1"])
            #expect(answered - started < .seconds(40))
        }
    }

    @Test("a held pull answers with the op a push commits, on the same server (SQLite) or another instance (PostgreSQL)",
          arguments: TestStore.allCases)
    func heldPullWakesOnPush(store: TestStore) async throws {
        try await Server.with(store: store) { first in
            // SQLite has one server per file; PostgreSQL's wake-up crosses instances through NOTIFY.
            let second = store == .postgres ? try await first.anotherInstance() : first
            do {
                let writer = try await second.register(name: "writer")
                let reader = try await first.register(name: "reader")
                let pull = Self.heldPull(first, reader, after: 0, waitMs: 60_000)
                try await Self.holding(first, 1)
                let pushed = try await second.push(writer, packetId: "p1", dependency: nil, ops: [Server.insert("op-1", "t1", ["x": 1], at: 1)])
                #expect(pushed.status == 200, "\(pushed)")
                let pushAnswered = ContinuousClock.now
                let (reply, answered) = try await pull.value
                #expect(reply.status == 200, "\(reply)")
                #expect(reply.body["ops"]?.arrayValue?.compactMap { $0["opId"]?.stringValue } == ["op-1"])
                #expect(reply.body["cursor"] == 1)
                // Woken by the commit, well before the 60 s it would otherwise have waited.
                #expect(answered - pushAnswered < .seconds(40))
                #expect(first.server.heldPulls == 0)
            } catch {
                if store == .postgres { await second.stop() }
                throw error
            }
            if store == .postgres { await second.stop() }
        }
    }

    @Test("a held pull woken by a commit with nothing after its cursor reads nothing, and keeps waiting", arguments: TestStore.allCases)
    func heldPullWaitsAgain(store: TestStore) async throws {
        // What a wake for another device's scope looks like, without tokens: the re-read finds
        // nothing the pull may return, and it waits again until something it may see commits.
        try await Server.with(store: store) { server in
            let device = try await server.register()
            #expect(try await server.push(device, packetId: "p1", dependency: nil, ops: [Server.insert("op-1", "t1", [:], at: 1)]).status == 200)
            let pull = Self.heldPull(server, device, after: 2, waitMs: 60_000)
            try await Self.holding(server, 1)
            #expect(try await server.push(device, packetId: "p2", dependency: "p1", ops: [Server.insert("op-2", "t2", [:], at: 2)]).status == 200)
            // Seq 2 is not after 2: still held, after the wake.
            try await Task.sleep(for: .milliseconds(200))
            try await Self.holding(server, 1)
            #expect(try await server.push(device, packetId: "p3", dependency: "p2", ops: [Server.insert("op-3", "t3", [:], at: 3)]).status == 200)
            let (reply, _) = try await pull.value
            #expect(reply.body["ops"]?.arrayValue?.compactMap { $0["opId"]?.stringValue } == ["op-3"])
        }
    }

    @Test("held pulls woken by a commit read it from memory, not the store; the cursors they pulled from reach the store within a sweep",
          arguments: TestStore.allCases)
    func heldPullsReadFromMemory(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            let writer = try await server.register(name: "writer")
            var readers: [TestDevice] = []
            for index in 0..<10 { readers.append(try await server.register(name: "reader\(index)")) }
            let memoryReads = "hybrid_sync_pull_reads_from_memory_total"
            // Memory is read at the first commit made while pulls are held (a page back from the last seq).
            let pulls = readers.map { Self.heldPull(server, $0, after: 0, waitMs: 60_000) }
            try await Self.holding(server, readers.count)
            #expect(try await server.push(writer, packetId: "p1", dependency: nil, ops: [Server.insert("op-1", "t1", ["x": 1], at: 1)]).status == 200)
            for pull in pulls {
                let (reply, _) = try await pull.value
                #expect(reply.body["ops"]?.arrayValue?.compactMap { $0["opId"]?.stringValue } == ["op-1"], "\(reply)")
                #expect(reply.body["cursor"] == 1)
            }

            // Held again from cursor 1: from memory when they come (nothing yet) and when the next
            // commit wakes them; their cursor recorded in one batch by the next sweep, as a pull
            // from the store records it.
            let before = try await MetricsText.take(server)[memoryReads]
            let again = readers.map { Self.heldPull(server, $0, after: 1, waitMs: 60_000) }
            try await Self.holding(server, readers.count)
            let recorded = try await eventually(within: .seconds(60)) {
                try await Self.storedCursors(server, readers.map(\.id)).allSatisfy { $0 == 1 }
            }
            #expect(recorded)
            #expect(try await server.push(writer, packetId: "p2", dependency: "p1", ops: [Server.insert("op-2", "t2", ["x": 2], at: 2)]).status == 200)
            for pull in again {
                let (reply, _) = try await pull.value
                #expect(reply.body["ops"]?.arrayValue?.compactMap { $0["opId"]?.stringValue } == ["op-2"], "\(reply)")
                #expect(reply.body["cursor"] == 2)
            }
            #expect(try await MetricsText.take(server)[memoryReads] - before >= Double(2 * readers.count))
            // Over PostgreSQL the second commit's entries came with its NOTIFY: the server did not
            // read them back (the first one's were read: memory starts with a read).
            let fromNews = try await MetricsText.take(server)["hybrid_sync_log_commits_from_news_total"]
            #expect(store == .postgres ? fromNews >= 1 : fromNews == 0, "\(fromNews)")
        }
    }

    /// The cursors the store holds for `devices`, read behind the server's back.
    static func storedCursors(_ server: Server, _ devices: [String]) async throws -> [Int] {
        if let postgres = server.postgres {
            let rows = try await postgres.rows("SELECT id, cursor::text FROM sync_device")
            let byId = Dictionary(uniqueKeysWithValues: rows.map { ($0[0] ?? "", Int($0[1] ?? "") ?? -1) })
            return devices.map { byId[$0] ?? -1 }
        }
        let database = try DatabaseQueue(path: server.database)
        return try await database.read { db in
            try devices.map { try Int.fetchOne(db, sql: "SELECT cursor FROM sync_device WHERE id = ?", arguments: [$0]) ?? -1 }
        }
    }

    @Test("a held pull is answered, with an empty page, when the server shuts down", arguments: TestStore.allCases)
    func heldPullAnsweredAtShutdown(store: TestStore) async throws {
        let server = try await Server.start(store: store)
        let device: TestDevice
        do {
            device = try await server.register()
        } catch {
            await server.finish()
            throw error
        }
        let started = ContinuousClock.now
        let pull = Self.heldPull(server, device, after: 0, waitMs: 60_000)
        try? await Self.holding(server, 1)
        await server.finish()
        let (reply, answered) = try await pull.value
        #expect(reply.status == 200, "\(reply)")
        #expect(reply.body["ops"] == [])
        // Answered by the shutdown, not by its 60 s running out.
        #expect(answered - started < .seconds(40))
    }
}

/// The load benchmark's first finding: on SQLite, the device lookup every authenticated request
/// makes read a GRDB `Row`, which is not Sendable, so Swift picked GRDB's blocking read, and with
/// two cores both of the concurrency pool's threads could wait for a reader that only an async
/// read on those same threads would give back: a server process stopped answering at 20 devices
/// (`hybrid-bench sync-server --smoke` shows it). This in-process check did not hang before the
/// fix (its client is not on the pool); it keeps many devices at once honest on both stores.
@Suite("many devices at once")
struct ManyDevicesTests {
    @Test("120 devices long-polling and pushing at once all get their answers", arguments: TestStore.allCases)
    func manyDevicesAtOnce(store: TestStore) async throws {
        try await LocalSyncServer.with(store: store) { server in
            var devices: [TestDevice] = []
            for index in 0..<120 { devices.append(try await server.register(name: "d\(index)")) }
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, device) in devices.enumerated() {
                    group.addTask {
                        let pull = LivePullTests.heldPull(server, device, after: 0, waitMs: 1_500)
                        let pushed = try await server.push(device, packetId: "p\(index)", dependency: nil,
                                                           ops: [LocalSyncServer.insert("op-\(index)", "t\(index)", ["x": .number(Double(index))], at: 1)])
                        let pulled = try await pull.value.reply
                        return (pushed.status == 200 ? 1 : 0) + (pulled.status == 200 ? 1 : 0)
                    }
                }
                // A stuck server answers nothing: the watchdog says so instead of the suite hanging.
                group.addTask {
                    try await Task.sleep(for: .seconds(300))
                    throw TestFailure("the server stopped answering: the pulls and pushes of 120 devices were not all answered in 300 s")
                }
                var total = 0
                for _ in devices {
                    total += try await group.next() ?? 0
                }
                group.cancelAll()
                return total
            }
            #expect(answered == 2 * devices.count)
        }
    }
}
