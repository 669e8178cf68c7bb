import Foundation
import HostTesting
import Hummingbird
import SystemIO
import Testing

/// Requests past the app's running limits wait instead of failing (`TransferQueue`), through the
/// real `hybrid run` of an app whose `app.json` sets the limits, against servers that count what
/// reaches them.
@Suite("network: calls past the running limits wait in order; only the waiting bound refuses")
struct NetworkQueueTests {
    @Test("1,000 concurrent requests to one host all succeed with the defaults, never more than 6 open at the server")
    func thousand() async throws {
        let server = try await QueueServer.start()
        let result = try await QueueApp.run(main: """
            const base = Hybrid.args[0];
            const answers = await Promise.all(Array.from({ length: 1000 }, (_, i) =>
              Hybrid.call("network", "request", { url: `${base}/hold/many?ms=2&i=${i}` })));
            console.log("ok:", answers.filter((r) => r.status === 200).length);
            console.log("waited:", answers.some((r) => r.timing.queuedMs > 0));
            """, arguments: [server.base])
        await server.stop()
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.contains("ok: 1000"), "\(result)")
        #expect(result.lines.contains("waited: true"), "\(result)")
        let stats = server.stats("many")
        #expect(stats.hits == 1000)
        // The default per-host limit, a browser's 6, held at the server.
        #expect(stats.maxOpen <= 6 && stats.maxOpen >= 1, "\(stats)")
    }

    @Test("connectionsPerHost 2 never has more than 2 open at the server; another host's calls do not wait behind that line")
    func perHost() async throws {
        let busy = try await QueueServer.start()
        let other = try await QueueServer.start()
        let result = try await QueueApp.run(network: #"{"connectionsPerHost": 2}"#, main: """
            const [busy, other] = Hybrid.args;
            let busyDone = 0;
            // Distinct URLs: identical GETs in flight at once would share a transfer.
            const lines = Array.from({ length: 20 }, (_, i) =>
              Hybrid.call("network", "request", { url: `${busy}/hold/line?ms=150&i=${i}` }).then((r) => { busyDone++; return r.status; }));
            const quick = await Promise.all([1, 2].map((i) => Hybrid.call("network", "request", { url: `${other}/hold/quick?i=${i}` })));
            console.log("other host answered while the busy one had done:", busyDone < 20 ? "fewer" : "all");
            console.log("quick waited:", quick.map((r) => r.timing.queuedMs).join(","));
            console.log("busy:", (await Promise.all(lines)).filter((s) => s === 200).length);
            """, arguments: [busy.base, other.base])
        await busy.stop()
        await other.stop()
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.contains("busy: 20"), "\(result)")
        #expect(result.lines.contains("other host answered while the busy one had done: fewer"), "\(result)")
        #expect(result.lines.contains("quick waited: 0,0"), "\(result)")
        let stats = busy.stats("line")
        #expect(stats.hits == 20)
        #expect(stats.maxOpen <= 2, "\(stats)")
        #expect(other.stats("quick").hits == 2)
    }

    @Test("past transfersQueued waiting calls, one more is E_TOO_MANY naming the quota; the waiting ones are answered")
    func waitingBound() async throws {
        let server = try await QueueServer.start()
        let result = try await QueueApp.run(quotas: #"{"transfers": 1, "transfersQueued": 2}"#, main: """
            const base = Hybrid.args[0];
            const outcome = (p) => p.then((r) => "answered " + r.status,
                                          (e) => `${e.code} ${e.details.quota} ${e.details.limit} ${e.message}`);
            const outcomes = await Promise.all([
              outcome(Hybrid.call("network", "request", { url: `${base}/hold/bound?ms=300` })),
              outcome(Hybrid.call("network", "request", { url: `${base}/hold/bound?ms=1&i=2` })),
              outcome(Hybrid.call("network", "download", { url: `${base}/hold/bound?ms=1&i=3`, path: "d.txt" })),
              outcome(Hybrid.call("network", "request", { url: `${base}/hold/bound?ms=1&i=4` })),
            ]);
            for (const line of outcomes) console.log(line);
            """, arguments: [server.base])
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(lines.count == 4, "\(result)")
        #expect(lines.prefix(2) == ["answered 200", "answered 200"], "\(result)")
        // The download starts on a worker: it may come in before or after the last request.
        let refused = lines.filter { $0.hasPrefix("E_TOO_MANY") }
        #expect(refused.count == 1 && lines.filter { $0 == "answered 200" }.count == 3, "\(result)")
        #expect(refused.first?.hasPrefix("E_TOO_MANY transfersQueued 2 network.") == true, "\(result)")
        #expect(refused.first?.contains("2 requests are waiting to start, the app's quota (app.json quotas.transfersQueued: 2)") == true, "\(result)")
        #expect(server.stats("bound").hits == 3)

        // transfersQueued 0: nothing waits, a call past the running limit is refused at once.
        let none = try await QueueApp.run(quotas: #"{"transfers": 1, "transfersQueued": 0}"#, main: """
            const base = Hybrid.args[0];
            const outcome = (p) => p.then((r) => "answered " + r.status, (e) => `${e.code} ${e.details.quota} ${e.details.limit}`);
            console.log((await Promise.all([outcome(Hybrid.call("network", "request", { url: `${base}/hold/none?ms=200` })),
                                            outcome(Hybrid.call("network", "request", { url: `${base}/hold/none?i=2` }))])).join(", "));
            """, arguments: [server.base])
        await server.stop()
        #expect(none.lines == ["answered 200, E_TOO_MANY transfersQueued 0"], "\(none)")
    }

    @Test("a waiting call cancelled by its signal or past its timeoutMs fails as a running one would and never reaches the server")
    func cancelAndTimeoutWhileWaiting() async throws {
        let server = try await QueueServer.start()
        let result = try await QueueApp.run(quotas: #"{"transfers": 1}"#, main: """
            const base = Hybrid.args[0];
            const outcome = (p) => p.then((r) => `answered ${r.status} queued ${r.timing.queuedMs > 0}`,
                                          (e) => `${e.code} ${e.details?.reason ?? ""} ${e.message}`);
            const controller = new AbortController();
            const all = Promise.all([
              outcome(Hybrid.call("network", "request", { url: `${base}/hold/first?ms=1500` })),
              outcome(Hybrid.call("network", "request", { url: `${base}/hold/cancelled` }, { signal: controller.signal })),
              outcome(Hybrid.call("network", "request", { url: `${base}/hold/timedout`, timeoutMs: 300 })),
              outcome(Hybrid.call("network", "request", { url: `${base}/hold/after` })),
            ]);
            setTimeout(() => controller.abort(), 100);
            for (const line of await all) console.log(line);
            """, arguments: [server.base])
        await server.stop()
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(lines.count == 4, "\(result)")
        #expect(lines.first == "answered 200 queued false", "\(result)")
        #expect(lines.dropFirst().first?.hasPrefix("E_CANCELLED") == true, "\(result)")
        #expect(lines.dropFirst(2).first?.hasPrefix("E_FAILED timeout network.request: timed out after 300 ms (timeoutMs) while it waited to start") == true, "\(result)")
        #expect(lines.last == "answered 200 queued true", "\(result)")
        #expect(server.stats("first").hits == 1)
        #expect(server.stats("cancelled").hits == 0)
        #expect(server.stats("timedout").hits == 0)
        #expect(server.stats("after").hits == 1)
    }

    @Test("waiting calls to one host start in the order they were made")
    func order() async throws {
        let server = try await QueueServer.start()
        let result = try await QueueApp.run(network: #"{"connectionsPerHost": 1}"#, main: """
            const base = Hybrid.args[0];
            await Promise.all(Array.from({ length: 40 }, (_, i) =>
              Hybrid.call("network", "request", { url: `${base}/hold/order?i=${i}&ms=${i === 0 ? 200 : 0}` })));
            console.log("done");
            """, arguments: [server.base])
        await server.stop()
        #expect(result.lines == ["done"], "\(result)")
        let stats = server.stats("order")
        #expect(stats.arrivals == Array(0..<40), "\(stats)")
        #expect(stats.maxOpen == 1, "\(stats)")
    }

    @Test("app.json network settings are checked at start, naming the field")
    func badSettings() async throws {
        let zero = try await QueueApp.run(network: #"{"connectionsPerHost": 0}"#, main: "")
        #expect(zero.status == 1 && zero.standardError.contains("app.json: network.connectionsPerHost: expected an integer from 1 to 1000000, got 0"), "\(zero)")
        let unknown = try await QueueApp.run(network: #"{"perHost": 2}"#, main: "")
        #expect(unknown.status == 1 && unknown.standardError.contains("app.json: network.perHost: unknown setting; expected one of connectionsPerHost"), "\(unknown)")
        let negative = try await QueueApp.run(quotas: #"{"transfersQueued": -1}"#, main: "")
        #expect(negative.status == 1 && negative.standardError.contains("app.json: quotas.transfersQueued: expected an integer of at least 0, got -1"), "\(negative)")
    }
}

/// An app folder with `app.json`'s `quotas` and `network`, run by the real `hybrid`.
enum QueueApp {
    struct Result: CustomStringConvertible {
        let status: Int32?
        let standardOutput: String
        let standardError: String
        var lines: [String] { standardOutput.split(separator: "\n").map(String.init) }
        var description: String { "exit \(status.map(String.init) ?? "none")\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)" }
    }

    /// `main` runs as the body of an async function; `arguments` are `Hybrid.args`.
    static func run(quotas: String = "{}", network: String = "{}", main: String, arguments: [String] = []) async throws -> Result {
        let binary = try #require(BuiltHybrid.path, "the hybrid executable is not built beside the tests: run `swift build` first")
        let folder = TemporaryFolder(prefix: "queue-app")
        defer { folder.remove() }
        try #"{"name": "queue", "main": "main.js", "grants": ["network:127.0.0.1"], "quotas": \#(quotas), "network": \#(network)}"#
            .write(toFile: folder.path + "/app.json", atomically: true, encoding: .utf8)
        try "(async () => {\n\(main)\n})();\n"
            .write(toFile: folder.path + "/main.js", atomically: true, encoding: .utf8)
        let child = try LiveProcess(binary, ["run", folder.path, "--data-dir", folder.path + "/data", "--"] + arguments)
        let exited = await child.wait(timeout: 120) { $0.exitStatus != nil }
        child.stop()
        let output = child.output
        #expect(exited, "hybrid run did not finish in 120 s: \(output.standardOutput) \(output.standardError)")
        return Result(status: output.exitStatus, standardOutput: output.standardOutput, standardError: output.standardError)
    }
}

/// A server that counts, per name, the requests it is in the middle of answering (`/hold/NAME`,
/// answering after `?ms=`), the most at once, and the `?i=` of each in the order they arrived.
final class QueueServer: Sendable {
    struct Stats: Sendable, CustomStringConvertible {
        var hits = 0
        var open = 0
        var maxOpen = 0
        var arrivals: [Int] = []
        var description: String { "hits \(hits), at most \(maxOpen) open, arrivals \(arrivals)" }
    }

    private let server: LocalHTTPServer
    private let table: Locked<[String: Stats]>
    var base: String { server.base }

    private init(server: LocalHTTPServer, table: Locked<[String: Stats]>) {
        self.server = server
        self.table = table
    }

    static func start() async throws -> QueueServer {
        let table = Locked<[String: Stats]>([:])
        let router = Router()
        router.get("/hold/:name") { request, context -> Response in
            let name = context.parameters.get("name") ?? ""
            let i = request.uri.queryParameters.get("i", as: Int.self)
            table.withLock { table in
                var stats = table[name] ?? Stats()
                stats.hits += 1
                stats.open += 1
                stats.maxOpen = max(stats.maxOpen, stats.open)
                if let i { stats.arrivals.append(i) }
                table[name] = stats
            }
            defer { table.withLock { $0[name]?.open -= 1 } }
            let ms = request.uri.queryParameters.get("ms", as: Int.self) ?? 0
            if ms > 0 { try await Task.sleep(for: .milliseconds(ms)) }
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: name)))
        }
        return QueueServer(server: try await LocalHTTPServer.start(router: router, label: "queue-tests"), table: table)
    }

    func stats(_ name: String) -> Stats { table.read { $0[name] ?? Stats() } }

    func stop() async { await server.stop() }
}
