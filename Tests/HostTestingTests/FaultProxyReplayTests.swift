import HostTesting
import Testing

@Suite("Fault proxy: seeded replay")
struct FaultProxyReplayTests {
    /// Sends `count` numbered requests one after another, each waiting for the last to end however
    /// it ended, and returns how many came back whole and right.
    private static func run(_ count: Int, through proxy: FaultProxy, from start: Int = 0) async -> Int {
        let client = RawHTTPClient(port: proxy.port)
        return await Blocking.run {
            (start..<start + count).filter { i in
                let body = "request \(i)"
                return (try? client.post("/echo?n=\(i)", body: body))?.text == body
            }.count
        }
    }

    @Test("the same seed and the same requests give the same decisions; another seed, others")
    func sameSeedSameEvents() async throws {
        let server = try await UpstreamServer.start()
        let plan = FaultPlan.chaos(rate: 0.7)
        let a = try FaultProxy(upstreamPort: server.port, seed: 20_240_611, plan: plan)
        let b = try FaultProxy(upstreamPort: server.port, seed: 20_240_611, plan: plan)
        let c = try FaultProxy(upstreamPort: server.port, seed: 7, plan: plan)
        _ = await Self.run(40, through: a)
        _ = await Self.run(40, through: b)
        _ = await Self.run(40, through: c)
        #expect(a.events.count == 40)
        #expect(a.events == b.events, "seed \(a.seed):\n\(a.events.map(\.description).joined(separator: "\n"))")
        #expect(a.events.map(\.kind) != c.events.map(\.kind))
        // At this rate over 40 requests every kind turns up, including faithful passes.
        #expect(Set(a.counts.keys) == Set(FaultKind.allCases), "\(a.counts)")
        for proxy in [a, b, c] { proxy.stop() }
        await server.stop()
    }

    @Test("after heal every request passes, whatever the plan was")
    func healPassesEverything() async throws {
        let server = try await UpstreamServer.start()
        let proxy = try FaultProxy(upstreamPort: server.port, seed: 99, plan: .chaos(rate: 1))
        let faulted = await Self.run(20, through: proxy)
        #expect(faulted < 20)
        proxy.heal()
        let healed = await Self.run(30, through: proxy, from: 20)
        #expect(healed == 30)
        #expect(proxy.events.dropFirst(20).allSatisfy { $0.kind == .pass })
        proxy.stop()
        await server.stop()
    }
}
