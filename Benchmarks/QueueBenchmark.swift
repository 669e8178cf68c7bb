import Bridge
import Foundation
import HostTesting
import Hummingbird
import JSON
import Networking
import SystemIO

/// `hybrid-bench queue`: the offline queue's drain rate (issue 31: ≥ 2,000 requests/s to a
/// loopback server) beside its baseline, measured in the same run: the same N small POSTs (a JSON
/// body and an Idempotency-Key) sent through `network.request` one at a time, in order, which is
/// what a queue's sender does for its head.
///
/// The queue's run is the offline case itself: N requests enqueued while the server is down (the
/// enqueue rate is printed too), the app run ended, the server brought up, and a new run's
/// service timed from its first queue call until `queueWatch` has seen all N finished: the rate
/// includes reopening the store, one commit per item and following the results. Once with one
/// queue (strictly in order, as the baseline), once with four queues sending in parallel. The
/// server runs in this process; both paths call the network service directly, without the JS
/// bridge, so the figures compare the queue's bookkeeping with the transfer it wraps.
struct QueueBenchmark {
    let requests: Int
    let rounds: Int

    init(iterations: Int?) {
        requests = 5_000
        rounds = iterations ?? 3
    }

    func run() {
        let scratch = TemporaryFolder(prefix: "hybrid-bench-queue")
        defer { scratch.remove() }
        // Rates by series: the baseline, 1 queue, 4 queues, enqueue.
        let rates = Locked<[String: [Double]]>([:])
        let (requests, rounds) = (requests, rounds)
        do {
            try blocking {
                let port = try await Self.freePort()
                let server = try await LocalHTTPServer.start(router: Self.router(), label: "bench-queue", port: port)
                for round in 0..<rounds {
                    let rate = try await Self.baseline(requests: requests, base: server.base, folder: scratch.path + "/baseline-\(round)")
                    rates.withLock { $0["baseline", default: []].append(rate) }
                }
                await server.stop()
                for round in 0..<rounds {
                    for queues in [1, 4] {
                        let (enqueueRate, drainRate) = try await Self.drain(requests: requests, queues: queues, port: port, folder: scratch.path + "/queue-\(round)-\(queues)")
                        rates.withLock { rates in
                            rates["\(queues)", default: []].append(drainRate)
                            if queues == 1 { rates["enqueue", default: []].append(enqueueRate) }
                        }
                    }
                }
            }
        } catch {
            print("bench queue: \(error)")
            return
        }
        let measured = rates.read { $0 }
        let median = { (key: String) in (measured[key] ?? [.nan]).sorted()[(measured[key]?.count ?? 1) / 2] }
        let (base, one, four, enqueue) = (median("baseline"), median("1"), median("4"), median("enqueue"))
        print("bench queue: \(requests) POSTs of a small JSON body with an Idempotency-Key to a loopback server in this process; \(rounds) rounds, median")
        print(BenchmarkTable.row("network.request, one at a time (baseline)", base, unit: "requests/s"))
        print(BenchmarkTable.row("offline queue drain, 1 queue", one,
                                 unit: "requests/s  (\(BenchmarkTable.format(one / base))x the baseline; goal >= 2000/s) \(one >= 2000 ? "pass" : "FAIL")"))
        print(BenchmarkTable.row("offline queue drain, 4 queues", four, unit: "requests/s  (\(BenchmarkTable.format(four / base))x the baseline)"))
        print(BenchmarkTable.row("enqueue, server down", enqueue, unit: "requests/s (each committed before it answers)"))
    }

    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/inbox/:queue") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 1 << 16)
            return Response(status: .created, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"ok":true}"#)))
        }
        return router
    }

    /// A port nothing listens on once this returns.
    static func freePort() async throws -> Int {
        let probe = try await LocalHTTPServer.start(router: Router(), label: "bench-queue-probe")
        await probe.stop()
        return probe.port
    }

    static func call(_ service: NetworkService, _ app: AppContext, _ action: String, _ params: JSONValue) async throws -> JSONValue {
        try await service.actions[action]!.perform(ServiceCall(target: "network", action: action, params: params, app: app))
    }

    static func app(_ folder: String) throws -> AppContext {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return AppContext(name: "bench-queue", version: "1", dataDirectory: folder, grants: .all)
    }

    static func request(_ base: String, queue: String, n: Int) -> JSONObject {
        ["url": .string("\(base)/inbox/\(queue)"), "json": ["n": .number(Double(n))], "headers": ["Idempotency-Key": .string("bench-\(n)")]]
    }

    static func baseline(requests: Int, base: String, folder: String) async throws -> Double {
        let service = NetworkService()
        let app = try app(folder)
        let started = MonotonicClock.now()
        for n in 0..<requests {
            let answer = try await call(service, app, "request", .object(request(base, queue: "q0", n: n)))
            guard answer["status"]?.intValue == 201 else { throw BenchError("baseline: status \(String(describing: answer["status"]))") }
        }
        return Double(requests) / (Double(MonotonicClock.now() - started) / 1e9)
    }

    /// Enqueues with the server down, ends that run, brings the server up and times a new run's drain.
    static func drain(requests: Int, queues: Int, port: Int, folder: String) async throws -> (enqueue: Double, drain: Double) {
        let base = "http://127.0.0.1:\(port)"
        let app = try app(folder)
        let offline = NetworkService()
        let enqueueStarted = MonotonicClock.now()
        for n in 0..<requests {
            let queue = "q\(n % queues)"
            _ = try await call(offline, app, "enqueue", ["queue": .string(queue), "request": .object(request(base, queue: queue, n: n))])
        }
        let enqueueRate = Double(requests) / (Double(MonotonicClock.now() - enqueueStarted) / 1e9)
        offline.runEnded(app: app)
        let server = try await LocalHTTPServer.start(router: router(), label: "bench-queue", port: port)
        let online = NetworkService()
        let started = MonotonicClock.now()
        _ = try await call(online, app, "queueStatus", ["limit": 0])
        var seen = 0, cursor = 0
        while seen < requests {
            let answer = try await call(online, app, "queueWatch", ["after": .number(Double(cursor)), "limit": 1000, "timeoutMs": 10_000])
            let items = answer["items"]?.arrayValue ?? []
            guard !items.isEmpty else { throw BenchError("queue: nothing finished for 10 s after \(seen)") }
            if let failed = items.first(where: { $0["state"] != "delivered" }) { throw BenchError("queue: \(failed)") }
            seen += items.count
            cursor = answer["cursor"]?.intValue ?? cursor
        }
        let rate = Double(requests) / (Double(MonotonicClock.now() - started) / 1e9)
        online.runEnded(app: app)
        await server.stop()
        return (enqueueRate, rate)
    }
}
