import ArgumentParser
import Dispatch
import SyncAuth
import SyncServer
import SystemIO

/// `hybrid sync-server [serve]`: the reference sync server, in the foreground until SIGINT or SIGTERM.
struct SyncServerServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the reference sync server (the default subcommand): devices push ops, pull what their scopes may see, and converge.",
        discussion: """
            HTTP+JSON: POST /v1/devices, POST /v1/push, GET /v1/pull, GET /v1/packets/ID, GET /v1/snapshot, \
            GET /v1/health (the store's kind and latency; 503 when it does not answer), GET /v1/metrics \
            (Prometheus text), and GET /v1/openapi.json, the OpenAPI 3.1 document of them all. Everything \
            lives in --db: a server restarted on it carries on. --db FILE is a SQLite file for one server; \
            --db postgres://USER@HOST:PORT/DATABASE is a PostgreSQL database that any number of servers \
            share, a device talking to any of them (the password from the URL or PGPASSWORD; the server \
            creates and migrates its tables at start).

            Every request carries "Authorization: Bearer TOKEN", a JSON Web Token from the app's auth \
            server (HS256 with --auth-secret-file, EdDSA with --auth-public-key; sub is the user, scopes \
            what it may see, exp required). Without either option the server refuses to start unless \
            given --insecure-no-auth, for local demos: then devices register freely and see everything.

            Each device may make --rate-limit requests a second after a burst of --rate-burst (by its \
            user and id; by the token's subject for a registration); past that it gets 429 with \
            Retry-After. The buckets are in memory, per server.

            Each connection is a file descriptor: the server raises its soft limit (ulimit -n) to the hard \
            one at start. Raise the hard limit (LimitNOFILE= in a systemd unit) above the devices that \
            long-poll one server, and /proc/sys/net/core/somaxconn, which caps --backlog.

            Prints "sync-server listening on http://HOST:PORT (auth: ...; rate limit: ...; backlog N; open \
            files N)" once bound (the real port for --port 0), then serves until SIGINT or SIGTERM.
            """
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int

    @Option(name: .customLong("db"), help: ArgumentHelp("Where devices, the op log and the state live: a SQLite file (created if missing), or postgres://USER@HOST:PORT/DATABASE, shared by several servers.", valueName: "file-or-url"))
    var database: String

    @Option(help: "The address to bind. The server has no TLS: keep it on loopback unless a proxy fronts it.")
    var host: String = "127.0.0.1"

    @Option(name: .customLong("hold-seconds"), help: "How long a packet may wait for the packet it depends on before it is rejected.")
    var holdSeconds: Double = 30

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body accepted (larger ones get 413).")
    var maxBodyBytes: Int = 8 * 1024 * 1024

    @Option(name: .customLong("auth-secret-file"), help: "Verify HS256 tokens with the secret in this file (at least 16 bytes).")
    var authSecretFile: String?

    @Option(name: .customLong("auth-public-key"), help: "Verify EdDSA tokens with this Ed25519 public key (PEM, as openssl pkey -pubout writes).")
    var authPublicKey: String?

    @Flag(name: .customLong("insecure-no-auth"), help: "Run without tokens: anyone who can reach the server registers a device and sees every row. Local demos only.")
    var insecureNoAuth = false

    @Option(name: .customLong("rate-limit"), help: "Requests a second each device may make, sustained (0: no limit).")
    var rateLimit: Double = RateLimit.standard.requestsPerSecond

    @Option(name: .customLong("rate-burst"), help: "Requests a quiet device may make at once (default: twice --rate-limit).")
    var rateBurst: Double?

    @Option(help: "Connections the kernel queues before the server accepts them; raise it (and /proc/sys/net/core/somaxconn, which caps it) for many devices long-polling one server.")
    var backlog: Int = 4096

    @Option(name: .customLong("retain-days"), help: "Keep op-log entries that every active device has pulled for this many days, then compact them.")
    var retainDays: Double = 30

    func validate() throws {
        guard authSecretFile != nil || authPublicKey != nil || insecureNoAuth else {
            throw ValidationError("expected --auth-secret-file FILE and/or --auth-public-key FILE, or --insecure-no-auth for a local demo")
        }
        guard !(insecureNoAuth && (authSecretFile != nil || authPublicKey != nil)) else {
            throw ValidationError("--insecure-no-auth: cannot be combined with --auth-secret-file or --auth-public-key")
        }
        guard retainDays >= 0 else { throw ValidationError("--retain-days: expected a number >= 0, got \(retainDays)") }
        guard (0...65535).contains(port) else { throw ValidationError("--port: expected 0...65535, got \(port)") }
        guard !database.isEmpty else { throw ValidationError("--db: expected a file path or postgres://USER@HOST:PORT/DATABASE") }
        if PostgresAddress.isURL(database) {
            do {
                _ = try PostgresAddress(url: database)
            } catch let error as SyncServerError {
                throw ValidationError("--db: \(error.message)")
            }
        }
        guard holdSeconds > 0 else { throw ValidationError("--hold-seconds: expected a positive number, got \(holdSeconds)") }
        guard rateLimit >= 0, rateLimit.isFinite else { throw ValidationError("--rate-limit: expected a number >= 0, got \(rateLimit)") }
        if let rateBurst {
            guard rateBurst >= 1, rateBurst.isFinite else { throw ValidationError("--rate-burst: expected a number >= 1, got \(rateBurst)") }
        }
        guard backlog > 0 else { throw ValidationError("--backlog: expected a positive number, got \(backlog)") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes: expected a positive number, got \(maxBodyBytes)") }
    }

    /// main.swift runs commands synchronously, so this blocks the main thread on a semaphore while a
    /// task runs the server on Swift's concurrency pool and NIO's event loops; neither needs the main
    /// thread, and the signals that stop the server arrive through Dispatch sources, not on it.
    func run() throws {
        var verifier: TokenVerifier?
        if !insecureNoAuth {
            do {
                verifier = try TokenVerifier(secretFile: authSecretFile, publicKeyFile: authPublicKey)
            } catch {
                throw CLIFailure(message: "sync-server: \(authSecretFile != nil ? "--auth-secret-file" : "--auth-public-key"): \(error.message)", code: 2)
            }
        }
        var configuration = SyncServerConfiguration(
            databasePath: database, host: host, port: port, holdSeconds: holdSeconds, maxBodyBytes: maxBodyBytes,
            stopsOnTerminationSignals: true, tokenVerifier: verifier
        )
        configuration.retainSeconds = retainDays * 86_400
        configuration.backlog = backlog
        configuration.rateLimit = RateLimit(requestsPerSecond: rateLimit, burst: rateBurst)
        // Each connection (a long poll held open, say) is a file descriptor: take what the hard
        // limit allows rather than a shell's default soft limit of 1024, and say what it is.
        let descriptors = FileDescriptorLimit.raiseToHard().soft
        let auth = (verifier.map { "auth: " + $0.algorithms.joined(separator: ", ") } ?? "INSECURE: no auth, every device sees every row")
            + "; rate limit: \(configuration.rateLimit); backlog \(backlog); open files \(descriptors == Int.max ? "unlimited" : String(descriptors))"
        let (host, port, database) = (host, port, database)
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        Task {
            defer { finished.signal() }
            let server: SyncServer
            do {
                server = try await SyncServer.open(configuration: configuration)
            } catch {
                // The PostgreSQL store says which database (without its password) and why.
                let message = PostgresAddress.isURL(database) ? (error as? SyncServerError)?.message ?? "\(error)" : "cannot open \(database): \(error)"
                outcome.failure = CLIFailure(message: "--db: \(message)", code: 1)
                return
            }
            let boundPort: Int
            do {
                boundPort = try await server.start()
            } catch {
                outcome.failure = CLIFailure(message: "sync-server: cannot listen on \(host):\(port): \(error)", code: 1)
                await server.stop()
                return
            }
            StandardStreams.write("sync-server listening on http://\(host):\(boundPort) (\(auth))\n", to: 1)
            StandardStreams.flush()
            do {
                try await server.waitUntilStopped()
            } catch {
                outcome.failure = CLIFailure(message: "sync-server: stopped: \(error)", code: 1)
            }
        }
        finished.wait()
        if let failure = outcome.failure { throw failure }
    }

    /// What the server task ended with, handed to the blocked main thread; the semaphore orders the
    /// write before the read.
    private final class Outcome: @unchecked Sendable {
        var failure: CLIFailure?
    }
}
