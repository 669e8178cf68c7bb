import HostTesting
import JSON
import SyncProtocol
import SyncServer
import Testing

@Suite("convergence")
struct ConvergenceTests {
    typealias Server = LocalSyncServer

    @Test("devices pushing at once each land in their own order, and every seq is used once", arguments: TestStore.allCases)
    func concurrentDevices(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            var devices: [TestDevice] = []
            for name in ["a", "b", "c", "d"] { devices.append(try await server.register(name: name)) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (d, device) in devices.enumerated() {
                    group.addTask {
                        for index in 0..<15 {
                            let reply = try await server.push(device, packetId: "p\(index)", dependency: index == 0 ? nil : "p\(index - 1)",
                                                              ops: [Server.insert("\(d)-\(index)", "r\(d)-\(index)", ["n": .number(Double(index))], at: 1)])
                            guard reply.status == 200 else { throw TestFailure("device \(d) packet \(index): \(reply)") }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let page = try await server.pull(devices[0], limit: 10_000)
            let ops = page.body["ops"]?.arrayValue ?? []
            #expect(ops.compactMap { $0["seq"]?.intValue } == Array(1...60))
            for d in 0..<4 {
                let mine = ops.filter { $0["deviceId"]?.stringValue == devices[d].id }.compactMap { $0["opId"]?.stringValue }
                #expect(mine == (0..<15).map { "\(d)-\($0)" })
            }
        }
    }

    @Test("a replica folding the pulled log in seq order holds exactly the server's snapshot", arguments: TestStore.allCases)
    func replicaMatchesSnapshot(store: TestStore) async throws {
        try await Server.with(store: store) { server in
            var random = SplitMix64(seed: 2024)
            var devices: [TestDevice] = []
            for name in ["phone", "laptop", "tablet"] { devices.append(try await server.register(name: name)) }
            var last: [String?] = [nil, nil, nil]
            var opNumber = 0
            for packetNumber in 0..<40 {
                let d = Int.random(in: 0..<3, using: &random)
                var ops: [SyncOperation] = []
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    opNumber += 1
                    let id = "op-\(opNumber)"
                    let dataId = "row-\(Int.random(in: 0..<8, using: &random))"
                    // Clocks disagree: timestamps wander, so later ops often lose.
                    let stamp = Double(opNumber * 10 + Int.random(in: -60...60, using: &random))
                    let table = Bool.random(using: &random) ? "tasks" : "notes"
                    let value: JSONValue = .number(Double(Int.random(in: 0..<5, using: &random)))
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<4: ops.append(Server.insert(id, table: table, dataId, ["v": value, "by": .number(Double(d))], at: stamp))
                    case 4..<7: ops.append(Server.update(id, table: table, dataId, ["v": value], at: stamp))
                    case 7..<9: ops.append(Server.delete(id, table: table, dataId, at: stamp))
                    default: ops.append(Server.batch(id, table: table, where: ["v": ["lte": value]], set: ["batched": .number(Double(opNumber))], at: stamp))
                    }
                }
                // Now and then a retry re-sends an op already logged.
                if opNumber > 3, Int.random(in: 0..<5, using: &random) == 0 {
                    ops.append(Server.insert("op-\(opNumber - 3)", "dup", [:], at: 0))
                }
                let packetId = "\(d)-\(packetNumber)"
                let reply = try await server.push(devices[d], packetId: packetId, dependency: last[d], ops: ops)
                #expect(reply.status == 200, "\(reply)")
                last[d] = packetId
            }

            var replica = ReplicaFold()
            var cursor = 0
            while true {
                let page = try await server.pull(devices[1], after: cursor, limit: 7)
                for op in page.body["ops"]?.arrayValue ?? [] { try replica.fold(op) }
                cursor = page.body["cursor"]?.intValue ?? cursor
                if page.body["more"] != true { break }
            }
            let snapshot = try await server.snapshot(devices[1])
            #expect(replica.snapshot == snapshot)
            #expect((snapshot["tables"]?["tasks"]?.arrayValue?.count ?? 0) > 0)
        }
    }
}
