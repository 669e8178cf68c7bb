import HostTesting
import JSON
import PatchProtocol
import PatchServer
import Testing

/// Two patch servers over one PostgreSQL database, publishers and devices reaching either, as
/// behind a round-robin load balancer: what one instance is told, the other acts on.
@Suite("patch servers over one PostgreSQL database")
struct PatchServerMultiInstanceTests {
    /// Two instances over a fresh database; `body` runs, then both stop, however it ends.
    static func withTwoInstances(_ body: (PatchServerHarness, PatchServerHarness) async throws -> Void) async throws {
        let first = try await PatchServerHarness(.postgres)
        let second: PatchServerHarness
        do {
            second = try await first.anotherInstance()
        } catch {
            await first.stop()
            throw error
        }
        do {
            try await body(first, second)
        } catch {
            await second.stop()
            await first.stop()
            throw error
        }
        await second.stop()
        await first.stop()
    }

    @Test("a patch published on one instance is offered by the other; halted on one, the other offers it to no one, even a device it offered it to before")
    func publishAndHaltAcrossInstances() async throws {
        try await Self.withTwoInstances { a, b in
            try await a.addApp()
            #expect(try await a.publish(try PatchServerHarness.patch(version: 1, modules: ["a.js": "exports.a = 2\n"])).status == 201)
            // B's offer cache now holds the patch's offer: the halt must stop it all the same.
            let offered = try await b.check("device-1")
            #expect(offered.body["patch"]?["patchVersion"] == 1, "\(offered)")
            #expect(try await b.check("device-2").body["patch"]?["patchVersion"] == 1)
            let halt = try await a.request(.post, "/v1/apps/demo/patches/1/halt", token: a.publisher, body: ["reason": "totals look off"])
            #expect(halt.status == 200, "\(halt)")
            // A's answer came after the commit: B reads the patch's state at every check.
            for device in ["device-1", "device-2", "device-3"] {
                let after = try await b.check(device)
                #expect(after.status == 200 && after.body["patch"] == .null, "offered by B after A halted it: \(after)")
            }
            let status = try await b.request(.get, "/v1/apps/demo/status", token: b.publisher)
            #expect(status.body["patches"]?[0]?["state"] == "halted" && status.body["patches"]?[0]?["haltReason"] == "totals look off", "\(status)")
            // Resumed through B at a rollout A sets: A offers it again, to the devices that share holds.
            #expect(try await b.request(.post, "/v1/apps/demo/patches/1/resume", token: b.publisher, body: [:]).status == 200)
            #expect(try await a.request(.post, "/v1/apps/demo/patches/1/rollout", token: a.publisher, body: ["percent": 10]).status == 200)
            var inside = 0
            for index in 0..<100 {
                let device = "rollout-\(index)"
                let offer = try await b.check(device).body["patch"]
                let holds = PatchCohort.contains(app: "demo", patchVersion: 1, deviceId: device, percent: 10)
                #expect((offer != .null) == holds, "\(device): offered \(offer != .null), in the 10% cohort \(holds)")
                if holds { inside += 1 }
            }
            #expect(inside > 0 && inside < 30, "\(inside) of 100 in a 10% cohort")
            let audit = try await b.request(.get, "/v1/apps/demo/audit", token: b.publisher)
            #expect(audit.body["entries"]?.arrayValue?.map { $0["action"]?.stringValue ?? "" } == ["keys", "publish", "halt", "resume", "rollout"], "\(audit)")
        }
    }

    @Test("the same version published on both instances at once is stored once: one 201, one 409")
    func publishOnce() async throws {
        try await Self.withTwoInstances { a, b in
            try await a.addApp()
            let (one, other) = (try PatchServerHarness.patch(version: 7, modules: ["a.js": "exports.a = 'a'\n"]),
                                try PatchServerHarness.patch(version: 7, modules: ["a.js": "exports.a = 'b'\n"]))
            async let first = a.publish(one)
            async let second = b.publish(other)
            let statuses = try await [first.status, second.status].sorted()
            #expect(statuses == [201, 409], "\(statuses)")
            let audit = try await a.request(.get, "/v1/apps/demo/audit", token: a.publisher)
            #expect(audit.body["entries"]?.arrayValue?.filter { $0["action"] == "publish" }.count == 1, "\(audit)")
        }
    }

    @Test("rollbacks from devices spread over two instances, sent at once, halt the patch exactly once: one audit entry, one halt counted")
    func concurrentRollbacksHaltOnce() async throws {
        try await Self.withTwoInstances { a, b in
            try await Self.rollbacksHaltOnce(through: [a, b])
        }
    }

    @Test("rollbacks sent at once to one server halt the patch exactly once", arguments: TestStore.allCases)
    func concurrentRollbacksHaltOnceOnOneServer(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store)
        defer { Task { await harness.stop() } }
        try await Self.rollbacksHaltOnce(through: [harness])
    }

    /// 40 devices apply patch 1, then all roll it back at once, each through the instances in
    /// turn: many rollbacks find the bound passed together, and one of them halts the patch.
    static func rollbacksHaltOnce(through instances: [PatchServerHarness]) async throws {
        let first = instances[0]
        try await first.addApp()
        #expect(try await first.publish(try PatchServerHarness.patch(version: 1, modules: ["a.js": "exports.a = 2\n"]), minDevices: 20).status == 201)
        let devices = (0..<40).map { "device-\($0)" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, device) in devices.enumerated() {
                let server = instances[index % instances.count]
                group.addTask {
                    let reply = try await server.report(device, version: 1, .applied)
                    guard reply.body["counted"] == true else { throw TestFailure("\(device) applied: \(reply)") }
                }
            }
            try await group.waitForAll()
        }
        let counted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for (index, device) in devices.enumerated() {
                // The other instance from the one its application went to.
                let server = instances[(index + 1) % instances.count]
                group.addTask {
                    let reply = try await server.report(device, version: 1, .rolledBack, reason: "threw")
                    guard reply.status == 200 else { throw TestFailure("\(device) rolled back: \(reply)") }
                    return reply.body["counted"] == true
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(counted == 40)
        let status = try await first.request(.get, "/v1/apps/demo/status", token: first.publisher)
        let patch = try #require(status.body["patches"]?[0])
        #expect(patch["state"] == "halted" && patch["haltedBy"] == "server", "\(patch)")
        #expect(patch["funnel"]?["applied"]?.intValue == 40 && patch["funnel"]?["rolledBack"]?.intValue == 40, "\(patch)")
        let audit = try await first.request(.get, "/v1/apps/demo/audit", token: first.publisher)
        let halts = audit.body["entries"]?.arrayValue?.filter { $0["action"] == "halt" } ?? []
        #expect(halts.count == 1, "\(audit)")
        #expect(halts.first?["subject"] == "server")
        var serverHalts = 0.0
        for instance in Set(instances.map(\.port)) {
            let server = instances.first { $0.port == instance }!
            let metrics = try await server.request(.get, "/v1/metrics", token: nil).text
            serverHalts += Self.sample(metrics, #"hybrid_patch_changes_total{action="halt",by="server"}"#) ?? 0
        }
        #expect(serverHalts == 1, "halts counted by the instances: \(serverHalts)")
        // Nobody is offered it after, through either instance.
        for server in instances {
            #expect(try await server.check("late-device").body["patch"] == .null)
        }
    }

    /// The value of the sample `name` in a Prometheus text exposition, or nil.
    static func sample(_ text: String, _ name: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }
}
