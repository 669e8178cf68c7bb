import CurlTransport
import Foundation
import HostTesting
import JSON
import SyncProtocol
import Testing

/// The convergence property of two-way sync: three devices make random inserts, updates, deletes and batch
/// operations while a fault-injecting proxy drops, duplicates, delays, reorders and cuts their
/// traffic; after the network heals, every replica equals the server, the server equals a fold of
/// its own log (the sequential model), no operation is in the log twice, and every operation a
/// device made reached the log (each device's outbox is empty: an operation leaves it only when the
/// pull brings it back from the server's log).
///
/// A failing seed prints itself; replay it with `SYNC_SEEDS=1234 swift test --filter SyncConvergence`.
@Suite("sync: convergence under faults", .serialized)
struct SyncConvergenceTests {
    static var seeds: [UInt64] {
        if let given = ProcessInfo.processInfo.environment["SYNC_SEEDS"] {
            return given.split(separator: ",").compactMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        }
        return [11, 23, 37, 41]
    }

    @Test("three devices under chaos converge once the network heals", arguments: seeds)
    func converge(seed: UInt64) async throws {
        try await SyncConvergence.check(seed: seed, devices: 3, steps: 40, rate: 0.3)
    }
}

/// One seeded convergence scenario (also what `hybrid bench sync`'s test-like sibling would run).
enum SyncConvergence {
    static func check(seed: UInt64, devices count: Int, steps: Int, rate: Double) async throws {
        let server = try await LocalSyncServer.start()
        var devices: [SyncDevice] = []
        var proxies: [FaultProxy] = []
        defer {
            proxies.forEach { $0.stop() }
            devices.forEach { $0.remove() }
        }
        for index in 0..<count {
            let proxy = try FaultProxy(upstreamPort: server.port, seed: seed &* 31 &+ UInt64(index), plan: .none)
            proxies.append(proxy)
            let device = try SyncDevice("d\(index)")
            devices.append(device)
            try await device.start(server: proxy.base)
            proxy.setPlan(.chaos(rate: rate))
        }
        var random = SplitMix64(seed: seed)
        var expectedOps = Array(repeating: 0, count: count)
        var nextId = 0
        for _ in 0..<steps {
            let index = Int(random.next() % UInt64(count))
            let device = devices[index]
            for _ in 0...(random.next() % 3) {
                expectedOps[index] += try await randomWrite(device, random: &random, nextId: &nextId)
            }
            if random.next() % 3 == 0 { _ = try? await device.run() }
        }
        proxies.forEach { $0.heal() }
        for _ in 0..<3 {
            for device in devices { try await settle(device) }
        }
        let log = try await serverLog(server, devices[0])
        let opIds = log.compactMap { $0["opId"]?.stringValue }
        let replay = "seed \(seed) (replay: SYNC_SEEDS=\(seed) swift test --filter SyncConvergence); faults: \(proxies.map { $0.counts })"
        if ProcessInfo.processInfo.environment["SYNC_VERBOSE"] != nil { print("convergence: \(log.count) ops in the log; \(replay)") }
        #expect(Set(opIds).count == opIds.count, "an operation is in the log twice; \(replay)")
        // The sequential model: the log folded in order by the rule every replica uses.
        var model: [String: MaterializedRow] = [:]
        for value in log {
            let op = try SyncOperation.decode(value, at: "")
            guard op.table == "tasks" else { continue }
            if op.type == .batch {
                let change = try BatchChange(value: op.data.map(JSONValue.object), at: "/data")
                for (id, row) in model { if let next = OperationFold.apply(change, of: op, to: row) { model[id] = next } }
            } else if let next = OperationFold.apply(op, to: model[op.dataId]) {
                model[op.dataId] = next
            }
        }
        let expected = model.filter { !$0.value.deleted }.mapValues(\.data)
        let remote = try await server.liveRows("tasks")
        #expect(remote == expected, "the server differs from its own log folded in order; \(replay)")
        for (index, device) in devices.enumerated() {
            let rows = try await device.rows("tasks")
            #expect(rows == remote, "device \(index) differs from the server: \(rows.count) rows vs \(remote.count); \(replay)")
            let status = try await device.sync("status")
            #expect(status["pending"] == 0 && status["sending"] == 0 && status["acknowledged"] == 0 && status["failed"] == [],
                    "device \(index) still has operations outside the server's log: \(status); \(replay)")
            let fromDevice = log.filter { $0["deviceId"] == status["deviceId"] && $0["table"] == "tasks" }.count
            #expect(fromDevice == expectedOps[index], "device \(index) made \(expectedOps[index]) operations, the log has \(fromDevice); \(replay)")
        }
        await server.finish()
    }

    /// One random write; returns how many operations it journaled.
    static func randomWrite(_ device: SyncDevice, random: inout SplitMix64, nextId: inout Int) async throws -> Int {
        let known = Array(try await device.rows("tasks").keys).sorted()
        let choice = random.next() % 10
        if known.isEmpty || choice < 4 {
            nextId += 1
            try await device.insert("tasks", [["id": .string("\(device.name)-\(nextId)"), "title": .string("task \(nextId)"),
                                               "done": false, "due": .number(Double(random.next() % 100))]])
            return 1
        }
        let id = known[Int(random.next() % UInt64(known.count))]
        switch choice {
        case 4...6:
            try await device.update("tasks", where: ["id": .string(id)], set: ["title": .string("edited \(random.next() % 1000)"),
                                                                             "due": .number(Double(random.next() % 100))])
        case 7, 8:
            try await device.delete("tasks", where: ["id": .string(id)])
        default:
            // One batch operation: "mark every task due before X done".
            try await device.update("tasks", where: ["due": ["lt": .number(Double(random.next() % 100))]], set: ["done": true])
        }
        return 1
    }

    /// Runs sync until a run succeeds (the network is healed, but a connection cut before healing
    /// may still be closing).
    static func settle(_ device: SyncDevice) async throws {
        for attempt in 0..<20 {
            do {
                try await device.run()
                return
            } catch {
                if attempt == 19 { throw error }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// The server's whole log, as a device pulls it.
    static func serverLog(_ server: LocalSyncServer, _ device: SyncDevice) async throws -> [JSONValue] {
        let connection = try device.replica.connection()!
        var ops: [JSONValue] = []
        var cursor = 0
        while true {
            let request = TransferRequest(url: server.base + "/v1/pull?deviceId=\(connection.deviceId)&after=\(cursor)&limit=10000",
                                          headers: [("Authorization", "Bearer \(connection.token)")])
            let page = try JSONParser.parse(try await CurlClient.shared.perform(request).body)
            ops += page["ops"]?.arrayValue ?? []
            cursor = page["cursor"]?.intValue ?? cursor
            if page["more"]?.boolValue != true { return ops }
        }
    }
}
