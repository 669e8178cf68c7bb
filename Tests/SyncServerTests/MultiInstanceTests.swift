import Foundation
import HostTesting
import JSON
import SyncProtocol
import SyncServer
import SystemIO
import Testing

/// Several servers over one PostgreSQL database, a device talking to any of them request by
/// request, as behind a round-robin load balancer.
@Suite("several instances over one PostgreSQL database")
struct MultiInstanceTests {
    typealias Server = LocalSyncServer

    /// Packet `p` of pusher `d`: an insert of its own row, and an update of one of four rows that
    /// every pusher updates, so that transactions from both instances contend for the same rows.
    static func ops(pusher d: Int, packet p: Int) -> [SyncOperation] {
        [Server.insert("\(d)-\(p)-i", "own-\(d)-\(p)", ["by": .number(Double(d))], at: Double(p)),
         Server.update("\(d)-\(p)-u", "shared-\((d + p) % 4)", ["last": .string("\(d)-\(p)")], at: Double(p * 10 + d))]
    }

    static let sharedRows = (0..<4).map { Server.insert("seed-\($0)", "shared-\($0)", ["last": "seed"], at: 0) }

    /// Pulls from the instances in turn, 7 ops at a time, folding what arrives, until `done` was
    /// set before a pull that found nothing more; returns the seqs and opIds in arrival order.
    static func read(as reader: TestDevice, from instances: [LocalSyncServer], until done: Locked<Bool>)
        async throws -> (seqs: [Int], opIds: [String], replica: ReplicaFold) {
        var seqs: [Int] = []
        var opIds: [String] = []
        var replica = ReplicaFold()
        var cursor = 0
        var turn = 0
        while true {
            // Read before the pull: a pull that starts after every push was answered sees them all.
            let finished = done.value
            let page = try await instances[turn % instances.count].pull(reader, after: cursor, limit: 7)
            turn += 1
            guard page.status == 200 else { throw TestFailure("pull after \(cursor): \(page)") }
            for op in page.body["ops"]?.arrayValue ?? [] {
                seqs.append(op["seq"]?.intValue ?? -1)
                opIds.append(op["opId"]?.stringValue ?? "")
                try replica.fold(op)
            }
            cursor = page.body["cursor"]?.intValue ?? cursor
            if finished && page.body["more"] != true { return (seqs, opIds, replica) }
        }
    }

    @Test("pushers on two instances while readers pull from both: every reader gets every op exactly once, in seq order, and folds to the snapshot")
    func concurrentPushersAndReaders() async throws {
        let first = try await Server.start(store: .postgres, rateLimit: .off)
        let second: LocalSyncServer
        do {
            second = try await first.anotherInstance()
        } catch {
            await first.finish()
            throw error
        }
        do {
            let instances: [LocalSyncServer] = [first, second]
            let seeder = try await first.register(name: "seeder")
            #expect(try await first.push(seeder, packetId: "seed", dependency: nil, ops: Self.sharedRows).status == 200)
            var registered: [TestDevice] = []
            for d in 0..<9 { registered.append(try await instances[d % 2].register(name: "device-\(d)")) }
            let (pushers, readers) = (Array(registered[..<6]), Array(registered[6...]))
            let packets = 20
            let done = Locked(false)
            let results = try await withThrowingTaskGroup(of: (seqs: [Int], opIds: [String], replica: ReplicaFold)?.self) { group in
                for reader in readers {
                    group.addTask { try await Self.read(as: reader, from: instances, until: done) }
                }
                group.addTask {
                    try await withThrowingTaskGroup(of: Void.self) { pushing in
                        for (d, pusher) in pushers.enumerated() {
                            pushing.addTask {
                                for p in 0..<packets {
                                    let reply = try await instances[(d + p) % 2].push(pusher, packetId: "p\(p)", dependency: p == 0 ? nil : "p\(p - 1)",
                                                                                      ops: Self.ops(pusher: d, packet: p))
                                    guard reply.status == 200 else { throw TestFailure("pusher \(d) packet \(p): \(reply)") }
                                }
                            }
                        }
                        try await pushing.waitForAll()
                    }
                    done.value = true
                    return nil
                }
                var results: [(seqs: [Int], opIds: [String], replica: ReplicaFold)] = []
                for try await result in group { if let result { results.append(result) } }
                return results
            }
            let total = Self.sharedRows.count + pushers.count * packets * 2
            let everyOp = Set(Self.sharedRows.map(\.opId) + (0..<pushers.count).flatMap { d in (0..<packets).flatMap { p in Self.ops(pusher: d, packet: p).map(\.opId) } })
            #expect(results.count == readers.count)
            for (index, result) in results.enumerated() {
                #expect(result.seqs == Array(1...total), "reader \(index) skipped or repeated a seq")
                #expect(result.opIds.count == total && Set(result.opIds) == everyOp, "reader \(index) did not get every op exactly once")
                let snapshot = try await first.snapshot(readers[index])
                #expect(result.replica.snapshot == snapshot, "reader \(index)'s fold differs from the server's state")
            }
        } catch {
            await second.stop()
            await first.finish()
            throw error
        }
        await second.stop()
        await first.finish()
    }

    @Test("two hybrid sync-server processes, one SIGKILLed mid-push: devices push again to the other, and every op is logged exactly once",
          .enabled(if: BuiltHybrid.path != nil, "needs the hybrid binary beside the tests (swift build first)"))
    func killedInstance() async throws {
        let database = try await PostgresTestDatabase.create()
        var processes: [LocalSyncServer] = []
        do {
            let doomed = try await LocalSyncServer.startChild(database: database.url, rateLimit: .off)
            processes.append(doomed)
            let survivor = try await LocalSyncServer.startChild(database: database.url, rateLimit: .off)
            processes.append(survivor)
            var registered: [TestDevice] = []
            for d in 0..<8 { registered.append(try await (d % 2 == 0 ? doomed : survivor).register(name: "device-\(d)")) }
            let devices = registered
            let packets = 15
            let answeredByDoomed = Locked(0)
            let inFlightToDoomed = Locked(0)
            let failedOver = Locked(0)
            let pushed = Locked(false)
            let killer = Task {
                // Once the doomed instance has answered a few pushes and is busy with others.
                while answeredByDoomed.value < 20 || inFlightToDoomed.value < 2 {
                    if pushed.value { return }
                    try await Task.sleep(for: .milliseconds(1))
                }
                doomed.kill()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (d, device) in devices.enumerated() {
                    group.addTask {
                        for p in 0..<packets {
                            let packet = (id: "p\(p)", dependency: p == 0 ? nil : "p\(p - 1)", ops: Self.ops(pusher: d, packet: p))
                            if p % 2 == 0 {
                                inFlightToDoomed.withLock { $0 += 1 }
                                let reply = try? await doomed.push(device, packetId: packet.id, dependency: packet.dependency, ops: packet.ops)
                                inFlightToDoomed.withLock { $0 -= 1 }
                                if reply?.status == 200 {
                                    answeredByDoomed.withLock { $0 += 1 }
                                    continue
                                }
                                failedOver.withLock { $0 += 1 }
                            }
                            // The same packet again, on the other instance: applied once, or answered as it was the first time.
                            let reply = try await survivor.push(device, packetId: packet.id, dependency: packet.dependency, ops: packet.ops)
                            guard reply.status == 200 else { throw TestFailure("device \(d) packet \(p) on the survivor: \(reply)") }
                        }
                    }
                }
                try await group.waitForAll()
            }
            pushed.value = true
            try await killer.value
            #expect(failedOver.value > 0)

            let everyOp = (0..<devices.count).flatMap { d in (0..<packets).flatMap { p in Self.ops(pusher: d, packet: p).map(\.opId) } }
            let logged = try await survivor.loggedOpIds(devices[0])
            #expect(logged.count == everyOp.count, "ops lost or doubled")
            #expect(Set(logged) == Set(everyOp))
            var seqs: [Int] = []
            var cursor = 0
            while true {
                let page = try await survivor.pull(devices[1], after: cursor, limit: 50)
                seqs += page.body["ops"]?.arrayValue?.compactMap { $0["seq"]?.intValue } ?? []
                cursor = page.body["cursor"]?.intValue ?? cursor
                if page.body["more"] != true { break }
            }
            #expect(seqs == Array(1...everyOp.count))
            for device in devices {
                #expect(try await survivor.packetState(device, "p\(packets - 1)").body["state"] == "applied")
            }
        } catch {
            for process in processes { await process.stop() }
            await database.drop()
            throw error
        }
        for process in processes { await process.stop() }
        await database.drop()
    }
}
