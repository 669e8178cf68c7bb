// hybrid-bench: the benchmarks, an executable of their own so that the shipped `hybrid` links
// none of them (nor the test servers they start). `make bench` runs every one.
import ArgumentParser

@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hybrid-bench",
        abstract: "Measure our path and its baseline in one run, and print the ratio.",
        discussion: "bridge: raw JSC callback vs Hybrid.call echo. schema: echo under a params schema with if/then/else, unevaluatedProperties and a pattern vs today's echo. startup: hybrid run hello.js vs node -e 0, then the stripped binary make deb installs vs the unstripped build. modules: an app of 200 TypeScript ES modules, cold and warm transform cache, vs the same app in CommonJS JS, and vs node. storage: Table vs raw SQLite, and storage/kv from JS. view: a 10k-node view laid out and rendered, and a one-attribute update vs a full redraw. view-scroll: a scroll step of a 1,000,000-item list given a height vs one of 100 items, and their mounts and updates. patch: verify + compile + swap of a 200 KB module vs a plain require of it. network: 2,000 GETs, 64 in flight, vs curl --parallel, with the server in this process and in one of its own; then fetch. fetch: 1,000 GETs, 64 in flight, through fetch vs node 20's fetch and vs network.request, and 100 MB through response.body (throughput vs node's, peak RSS vs a 1 MB read's). websocket: 20,000 echoes of 32-byte messages, 64 in flight, through WebSocket vs node 20 with Debian's ws, against ws's echo server. queue: 5,000 POSTs enqueued with a loopback server down, then drained once it is up (requests/s, one queue and four), vs the same POSTs through network.request one at a time. sync: tracked vs untracked writes, push and pull-and-apply of 10k ops vs raw HTTP. sync-scopes: a 1-of-100-scopes pull from a server of 1M other ops vs one of only its scope, and a new device's initial sync from a compacted snapshot vs the raw pages. sync-postgres (under scripts/with-postgres): pushes from 16 devices to one and two servers over PostgreSQL vs one over SQLite. sync-server (under scripts/with-postgres): 1,000 devices with tokens of their own pushing and live-pulling against release `hybrid sync-server serve` processes over SQLite, PostgreSQL and two instances over PostgreSQL (ops/s, pull and write-to-other-device latency, CPU per 1,000 ops), then 3,000 pulls held by one server; --smoke: 20 devices for 2 s against two PostgreSQL instances (SQLite without a cluster), failing unless every op arrived exactly once. write-ceiling (under scripts/with-postgres): pushes a second, open loop and rising, until p99 passes 100 ms, into one server over SQLite, one over PostgreSQL and two sharing a PostgreSQL database. patch-server: 10,000 devices (--devices) each check a patch server on loopback once over a minute (--seconds), open loop, for a patch whose 250 KB module changed by one line (p50/p99 from each check's due time, CPU per check) vs GET /v1/health at the same rate, the delta's size against the source, the server's capacity (64 in flight), then the time from halt to the last offer. watch: an edit of a TypeScript module under hybrid run --watch, write to the new code's output, swapped in place vs the app restarted. idle-connections: GET /v1/health latency while 20,000 connections (--devices N) that send nothing or half a head are open against release `hybrid sync-server serve` with its default limits vs with none open, and its memory a minute after they close vs idle. web: the web platform's globals (URL over WPT's urltestdata, TextEncoder/TextDecoder, structuredClone, localStorage, WebCrypto, a 100 MB stream through a TransformStream and gzip with its memory, Blob), each a file of Benchmarks/web/ under hybrid run vs node, and hello.js start-up vs a bare JavaScriptCore process."
    )

    /// Every benchmark, as `name` takes it.
    static let names = ["bridge", "schema", "startup", "inspect", "modules", "storage", "view", "view-scroll", "patch", "network", "fetch",
                        "websocket", "queue", "sync", "sync-scopes", "sync-postgres", "sync-server", "write-ceiling",
                        "patch-server", "watch", "idle-connections", "web"]

    @Argument(help: ArgumentHelp("Which benchmark: \(Self.names.joined(separator: ", "))."))
    var name: String

    @Option(help: "Repetitions (benchmark-specific default; sync-server: rounds of the two PostgreSQL setups, default 3).")
    var iterations: Int?

    @Option(help: "sync-server: simulated devices (default 1000); idle-connections: the attacker's connections (default 20000).")
    var devices: Int?

    @Option(help: "sync-server: seconds measured per setup, after a warm-up (default 30); write-ceiling: per step (default 4); web: per workload run (default 2).")
    var seconds: Double?

    @Option(help: "sync-server: packets a second offered by all devices together (default 50).")
    var rate: Double?

    @Option(help: "sync-server: live pulls held at once in the capacity run (default 3000; 0 skips it).")
    var capacity: Int?

    @Flag(help: "sync-server: 20 devices for 2 s against two PostgreSQL instances (SQLite without a cluster); exit 1 unless every op reached every device of its scope exactly once.")
    var smoke = false

    @Flag(help: .hidden)
    var serve = false

    @Option(help: .hidden)
    var port: Int?

    /// web's start-up baseline: evaluate this file in a bare JavaScriptCore context and exit.
    @Option(help: .hidden)
    var bareJsc: String?

    func run() throws {
        switch name {
        case "bridge": BridgeBenchmark(iterations: iterations).run()
        case "schema": SchemaEchoBenchmark(iterations: iterations).run()
        case "startup": StartupBenchmark(iterations: iterations).run()
        case "inspect": InspectBenchmark(iterations: iterations).run()
        case "modules": ModulesBenchmark(iterations: iterations).run()
        case "patch": PatchBenchmark(iterations: iterations).run()
        case "view": ViewBenchmark(iterations: iterations).run()
        case "view-scroll": ViewScrollBenchmark(iterations: iterations).run()
        case "storage": StorageBenchmark(iterations: iterations).run()
        case "network" where serve: NetworkBenchmark.serve()
        case "network": NetworkBenchmark(iterations: iterations).run()
        case "fetch": FetchBenchmark(rounds: iterations ?? 7).run()
        case "websocket": WebSocketBenchmark(rounds: iterations ?? 3).run()
        case "queue": QueueBenchmark(iterations: iterations).run()
        case "sync": SyncBenchmark(iterations: iterations).run()
        case "sync-scopes": SyncScopeBenchmark(iterations: iterations).run()
        case "sync-postgres": SyncPostgresBenchmark(iterations: iterations).run()
        case "watch": WatchBenchmark(iterations: iterations).run()
        case "idle-connections" where serve: IdleConnectionsBenchmark.attack(port: port ?? 0, count: devices ?? IdleConnectionsBenchmark.perAttacker)
        case "idle-connections": IdleConnectionsBenchmark(connections: devices).run()
        case "write-ceiling": WriteCeilingBenchmark(seconds: seconds).run()
        case "patch-server": PatchServerBenchmark(devices: devices, seconds: seconds).run()
        case "web" where bareJsc != nil:
            let status = BareJavaScriptCore.run(bareJsc!)
            if status != 0 { throw ExitCode(status) }
        case "web": WebBenchmark(iterations: iterations, seconds: seconds).run()
        case "sync-server":
            let exact = SyncServerLoadBenchmark(devices: devices, seconds: seconds, rate: rate, capacity: capacity, rounds: iterations, smoke: smoke).run()
            // Only the smoke check fails the command: a full run reports a miss and goes on.
            if smoke && !exact { throw ExitCode.failure }
        default: throw ValidationError("unknown benchmark \"\(name)\"; expected one of \(Self.names.joined(separator: ", "))")
        }
    }
}
