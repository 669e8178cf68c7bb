import Foundation
import GRDB
import HostTesting
import JSON
import SyncAuth
import SyncProtocol
import SyncServer
import Testing

/// The convergence property with scopes: two of Alice's devices and one of Bob's (each user has a
/// private scope; both share `team:t1`) insert, edit, move between scopes, delete and batch-edit
/// scoped `board` rows, and write the unscoped `tasks` table (each user's own), through a proxy
/// that drops, duplicates, delays, reorders and cuts their traffic. Once the network heals:
///
/// - the server equals its own log folded in order, partition by partition (the sequential model);
/// - every device holds exactly the server's rows of its scopes, and its user's `tasks`;
/// - every operation a device made is in the log once, or was refused for its scope. A refusal is
///   the one outcome concurrency makes legitimate here: a row one user moved into their private
///   scope while the other still edited it as the team's. The refused op alone fails (listed in
///   `sync.status`), and its row is the server's again, so the comparison above holds for every
///   row, the refused ones' included.
///
/// A failing seed prints itself; replay it with `SYNC_SEEDS=1234 swift test --filter SyncScopeConvergence`.
@Suite("sync: convergence with scopes under faults", .serialized)
struct SyncScopeConvergenceTests {
    @Test("two users' devices with private and shared scopes converge once the network heals", arguments: SyncConvergenceTests.seeds)
    func converge(seed: UInt64) async throws {
        try await SyncScopeConvergence.check(seed: seed, steps: 40, rate: 0.3)
    }

    @Test("the same, the devices split between two servers over one PostgreSQL database", arguments: SyncConvergenceTests.seeds)
    func convergeOnTwoServers(seed: UInt64) async throws {
        try await SyncScopeConvergence.check(seed: seed, steps: 40, rate: 0.3, store: .postgres, servers: 2)
    }
}

enum SyncScopeConvergence {
    struct Member {
        let device: SyncDevice
        let user: String
        let scopes: [String]
    }

    /// With `servers` > 1, the others run over the same database and the devices are dealt out
    /// among them (a device keeps its server: MultiInstanceTests switches them request by request).
    static func check(seed: UInt64, steps: Int, rate: Double, store: TestStore = .sqlite, servers: Int = 1) async throws {
        let server = try await LocalSyncServer.start(store: store, tokenVerifier: TokenVerifier(secret: SyncScopeTests.secret))
        var instances = [server]
        var members: [Member] = []
        var proxies: [FaultProxy] = []
        defer {
            proxies.forEach { $0.stop() }
            members.forEach { $0.device.remove() }
        }
        do {
            while instances.count < servers { instances.append(try await server.anotherInstance()) }
            try await check(seed: seed, steps: steps, rate: rate, server: server, instances: instances, members: &members, proxies: &proxies)
        } catch {
            for other in instances.dropFirst() { await other.server.stop() }
            await server.finish()
            throw error
        }
        for other in instances.dropFirst() { await other.server.stop() }
        await server.finish()
    }

    static func check(seed: UInt64, steps: Int, rate: Double, server: LocalSyncServer, instances: [LocalSyncServer],
                      members: inout [Member], proxies: inout [FaultProxy]) async throws {
        let people = [("alice-phone", "alice"), ("alice-laptop", "alice"), ("bob-phone", "bob")]
        for (index, (name, user)) in people.enumerated() {
            let scopes = ["user:\(user)", "team:t1"]
            let proxy = try FaultProxy(upstreamPort: instances[index % instances.count].port, seed: seed &* 31 &+ UInt64(index), plan: .none)
            proxies.append(proxy)
            let device = try SyncDevice(name)
            members.append(Member(device: device, user: user, scopes: scopes))
            try await device.start(server: proxy.base, token: SyncScopeTests.token(user, scopes))
            proxy.setPlan(.chaos(rate: rate))
        }
        var random = SplitMix64(seed: seed)
        var made = Array(repeating: 0, count: members.count)
        var nextId = 0
        for _ in 0..<steps {
            let index = Int(random.next() % UInt64(members.count))
            for _ in 0...(random.next() % 3) {
                made[index] += try await randomWrite(members[index], random: &random, nextId: &nextId)
            }
            if random.next() % 3 == 0 { _ = try? await members[index].device.run() }
        }
        proxies.forEach { $0.heal() }
        for _ in 0..<3 {
            for member in members { try await SyncConvergence.settle(member.device) }
        }
        let replay = "seed \(seed) (replay: SYNC_SEEDS=\(seed) swift test --filter SyncScopeConvergence); faults: \(proxies.map { $0.counts })"

        let log = try await serverLog(server)
        #expect(Set(log.map(\.op.opId)).count == log.count, "an operation is in the log twice; \(replay)")
        // The sequential model: each partition's log folded in order by the rule every replica uses.
        var model: [String: [String: MaterializedRow]] = [:]
        for entry in log {
            let key = entry.partition + "/" + entry.op.table
            var rows = model[key] ?? [:]
            if entry.op.type == .batch {
                let change = try BatchChange(value: entry.op.data.map(JSONValue.object), at: "/data")
                for (id, row) in rows { if let next = OperationFold.apply(change, of: entry.op, to: row) { rows[id] = next } }
            } else if let next = OperationFold.apply(entry.op, to: rows[entry.op.dataId]) {
                rows[entry.op.dataId] = next
            }
            model[key] = rows
        }
        func live(_ rows: [String: MaterializedRow]?) -> [String: JSONObject] { (rows ?? [:]).filter { !$0.value.deleted }.mapValues(\.data) }
        let board = try await server.liveRows("board")
        #expect(board == live(model["/board"]), "the server's board differs from its log folded in order; \(replay)")
        var tasks: [String: [String: JSONObject]] = [:]
        for user in ["alice", "bob"] {
            let identity = DeviceIdentity(deviceId: "", user: user, scopes: [])
            let part = try await server.server.store.snapshot(for: identity, part: .user, after: nil, limit: nil)
            tasks[user] = Dictionary(uniqueKeysWithValues: (part.tables["tasks"] ?? []).filter { !$0.deleted }.map { ($0.dataId, $0.data) })
            #expect(tasks[user] == live(model[user + "/tasks"]), "\(user)'s tasks on the server differ from their log folded in order; \(replay)")
        }

        for (index, member) in members.enumerated() {
            let status = try await member.device.sync("status")
            #expect(status["pending"] == 0 && status["sending"] == 0 && status["acknowledged"] == 0,
                    "\(member.device.name) still has operations in flight: \(status); \(replay)")
            let failed = status["failed"]?.arrayValue ?? []
            for op in failed {
                #expect(op["error"]?.stringValue?.hasPrefix("scope:") == true, "\(member.device.name): an op failed for another reason than its scope: \(op); \(replay)")
            }

            let expectedBoard = board.filter { member.scopes.contains($0.value["owner"]?.stringValue ?? "") }
            let rows = try await member.device.rows("board")
            #expect(rows == expectedBoard,
                    "\(member.device.name)'s board differs from the server's rows of its scopes: \(rows.count) rows vs \(expectedBoard.count); \(replay)")
            #expect(try await member.device.rows("tasks") == (tasks[member.user] ?? [:]),
                    "\(member.device.name)'s tasks differ from its user's on the server; \(replay)")

            if ProcessInfo.processInfo.environment["SYNC_VERBOSE"] != nil {
                print("scope convergence: \(member.device.name) made \(made[index]) ops, \(failed.count) refused; \(replay)")
            }
            let deviceId = status["deviceId"]?.stringValue
            let logged = log.filter { $0.deviceId == deviceId }.count
            #expect(logged + failed.count == made[index],
                    "\(member.device.name) made \(made[index]) operations: \(logged) in the log, \(failed.count) refused; \(replay)")
        }
    }

    /// One random write of `member`'s, within its scopes (as the app would offer it); returns how
    /// many operations it journaled.
    static func randomWrite(_ member: Member, random: inout SplitMix64, nextId: inout Int) async throws -> Int {
        let device = member.device
        let choice = random.next() % 12
        if choice >= 10 {
            return try await SyncConvergence.randomWrite(device, random: &random, nextId: &nextId)
        }
        func anyScope(_ random: inout SplitMix64) -> String { member.scopes[Int(random.next() % UInt64(member.scopes.count))] }
        let known = Array(try await device.rows("board").keys).sorted()
        if known.isEmpty || choice < 3 {
            nextId += 1
            try await device.insert("board", [["id": .string("\(device.name)-b\(nextId)"), "title": .string("card \(nextId)"),
                                               "owner": .string(anyScope(&random))]])
            return 1
        }
        let id = known[Int(random.next() % UInt64(known.count))]
        switch choice {
        case 3, 4:
            try await device.update("board", where: ["id": .string(id)], set: ["title": .string("edited \(random.next() % 1000)")])
        case 5, 6:
            // A move: into the user's private scope (out of the other user's sight) or into the team.
            try await device.update("board", where: ["id": .string(id)], set: ["owner": .string(anyScope(&random))])
        case 7:
            try await device.delete("board", where: ["id": .string(id)])
        default:
            // One batch operation, on the rows of one scope.
            try await device.update("board", where: ["owner": .string(anyScope(&random))], set: ["title": .string("swept \(random.next() % 1000)")])
        }
        return 1
    }

    struct Entry {
        let op: SyncOperation
        let deviceId: String
        let partition: String
    }

    /// The server's whole log, read from its database (no device may pull all of it).
    static func serverLog(_ server: LocalSyncServer) async throws -> [Entry] {
        if let postgres = server.postgres {
            return try await postgres.rows("""
                SELECT op_id, device_id, partition, table_name, data_id, type, data, timestamp::text FROM sync_log ORDER BY seq
                """).map { row in
                let text = row.map { $0 ?? "" }
                let value: JSONValue = [
                    "opId": .string(text[0]), "dataId": .string(text[4]), "table": .string(text[3]), "type": .string(text[5]),
                    "data": try row[6].map { try JSONParser.parse($0) } ?? .null, "timestamp": .number(Double(text[7]) ?? .nan),
                ]
                return Entry(op: try SyncOperation.decode(value, at: ""), deviceId: text[1], partition: text[2])
            }
        }
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: server.database, configuration: configuration)
        return try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT opId, deviceId, partition, tableName, dataId, type, data, timestamp FROM sync_log ORDER BY seq").map { row in
                let data: String? = row["data"]
                let value: JSONValue = [
                    "opId": .string(row["opId"]), "dataId": .string(row["dataId"]), "table": .string(row["tableName"]),
                    "type": .string(row["type"]), "data": try data.map { try JSONParser.parse($0) } ?? .null,
                    "timestamp": .number(row["timestamp"]),
                ]
                return Entry(op: try SyncOperation.decode(value, at: ""), deviceId: row["deviceId"], partition: row["partition"])
            }
        }
    }
}
