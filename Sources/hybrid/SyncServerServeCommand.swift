import ArgumentParser
import Dispatch
import SyncAuth
import HTTPServing
import SyncProtocol
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

            Each user may make --rate-limit requests a second after a burst of --rate-burst, all its \
            devices together (each device on an insecure server); past that it gets 429 with \
            Retry-After, before its request's body is read. An address whose authentications fail \
            more than --auth-failure-limit a second (after a burst of 10 times that) gets 429 before \
            its tokens are looked at. A user may register --max-devices-per-user devices and hold \
            --max-held-pulls-per-user pulls open at once. The buckets are in memory, per server.

            A connection must send its first request head within --head-timeout seconds, each part \
            of a body within --body-timeout of the last, and its next request within --idle-timeout \
            of a response; else it is closed. At most --max-connections are open (kept below the \
            open-file limit) and --max-connections-per-address from one address: past a bound, the \
            oldest idle connection in the way is closed to make room, or the new one when none is \
            idle. A held pull ends as soon as its client closes the connection.

            A table's scope column is whatever its user's first op declares, unless --table-scope \
            TABLE=COLUMN (or TABLE= for none) fixes it for everyone. /v1/metrics shows every limit \
            (hybrid_sync_limit) and what each refused.

            Each connection is a file descriptor: the server raises its soft limit (ulimit -n) to the hard \
            one at start. Raise the hard limit (LimitNOFILE= in a systemd unit) above the devices that \
            long-poll one server, and /proc/sys/net/core/somaxconn, which caps --backlog.

            Prints "sync-server listening on http(s)://HOST:PORT (auth: ...; rate limit: ...; backlog N; open \
            files N)" once bound (the real port for --port 0), then serves until SIGINT or SIGTERM.
            """
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int

    @Option(name: .customLong("db"), help: ArgumentHelp("Where devices, the op log and the state live: a SQLite file (created if missing), or postgres://USER@HOST:PORT/DATABASE, shared by several servers.", valueName: "file-or-url"))
    var database: String

    @Option(help: "The address to bind. Without --tls-cert the server speaks plain HTTP: keep it on loopback unless a proxy adds TLS.")
    var host: String = "127.0.0.1"

    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("Serve HTTPS with this PEM certificate chain (the server's certificate first); needs --tls-key. SIGHUP reads both files again.", valueName: "file"))
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Option(name: .customLong("hold-seconds"), help: "How long a packet may wait for the packet it depends on before it is rejected.")
    var holdSeconds: Double = 30

    @Option(name: .customLong("max-clock-skew"), help: "Seconds an op's timestamp may be ahead of the server's clock; a push with one later is refused (400).")
    var maxClockSkew: Double = 300

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body accepted (larger ones get 413).")
    var maxBodyBytes: Int = 8 * 1024 * 1024

    @Option(name: .customLong("auth-secret-file"), help: "Verify HS256 tokens with the secret in this file (at least 16 bytes).")
    var authSecretFile: String?

    @Option(name: .customLong("auth-public-key"), help: "Verify EdDSA tokens with this Ed25519 public key (PEM, as openssl pkey -pubout writes).")
    var authPublicKey: String?

    @Flag(name: .customLong("insecure-no-auth"), help: "Run without tokens: anyone who can reach the server registers a device and sees every row. Local demos only.")
    var insecureNoAuth = false

    @Option(name: .customLong("rate-limit"), help: "Requests a second each user may make, all its devices together (each device on an insecure server), sustained (0: no limit).")
    var rateLimit: Double = RateLimit.standard.requestsPerSecond

    @Option(name: .customLong("rate-burst"), help: "Requests a quiet user may make at once (default: twice --rate-limit).")
    var rateBurst: Double?

    @Option(help: "Connections the kernel queues before the server accepts them; raise it (and /proc/sys/net/core/somaxconn, which caps it) for many devices long-polling one server.")
    var backlog: Int = 4096

    @Option(name: .customLong("head-timeout"), help: "Seconds a new connection has to send its first request head.")
    var headTimeout: Double = ConnectionLimits().headTimeout.seconds

    @Option(name: .customLong("body-timeout"), help: "Seconds a request body may go without a byte.")
    var bodyTimeout: Double = ConnectionLimits().bodyTimeout.seconds

    @Option(name: .customLong("idle-timeout"), help: "Seconds a kept-alive connection may wait for its next request.")
    var idleTimeout: Double = ConnectionLimits().idleTimeout.seconds

    @Option(name: .customLong("max-connections"), help: "Connections open at once (capped below the open-file limit).")
    var maxConnections: Int = ConnectionLimits().maxConnections

    @Option(name: .customLong("max-connections-per-address"), help: "Connections open at once from one IP address (behind a reverse proxy, every connection has its address: raise this to --max-connections).")
    var maxConnectionsPerAddress: Int = ConnectionLimits().maxConnectionsPerAddress

    @Option(name: .customLong("max-devices-per-user"), help: "Devices one user may register.")
    var maxDevicesPerUser: Int = 100

    @Option(name: .customLong("max-held-pulls-per-user"), help: "Pulls one user may hold open at once (waitMs).")
    var maxHeldPullsPerUser: Int = 100

    @Option(name: .customLong("auth-failure-limit"), help: "Failed authentications a second one address may have, after a burst of ten times as many.")
    var authFailureLimit: Double = 10

    @Option(name: .customLong("table-scope"), help: ArgumentHelp("Fix a table's scope column for every user: TABLE=COLUMN, or TABLE= for none (repeat for more).", valueName: "table=column"))
    var tableScopes: [String] = []

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
        try DatabaseArgument.validate(database)
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError(tlsKey == nil ? "--tls-key: expected the private key of --tls-cert" : "--tls-cert: expected the certificate chain of --tls-key")
        }
        guard holdSeconds > 0 else { throw ValidationError("--hold-seconds: expected a positive number, got \(holdSeconds)") }
        guard maxClockSkew >= 0, maxClockSkew <= 86_400 * 365 else {
            throw ValidationError("--max-clock-skew: expected seconds from 0 to 31536000, got \(maxClockSkew)")
        }
        guard rateLimit >= 0, rateLimit.isFinite else { throw ValidationError("--rate-limit: expected a number >= 0, got \(rateLimit)") }
        if let rateBurst {
            guard rateBurst >= 1, rateBurst.isFinite else { throw ValidationError("--rate-burst: expected a number >= 1, got \(rateBurst)") }
        }
        guard backlog > 0 else { throw ValidationError("--backlog: expected a positive number, got \(backlog)") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes: expected a positive number, got \(maxBodyBytes)") }
        for (flag, seconds) in [("--head-timeout", headTimeout), ("--body-timeout", bodyTimeout), ("--idle-timeout", idleTimeout)] {
            guard seconds > 0, seconds <= 86_400 else { throw ValidationError("\(flag): expected seconds from 0 to 86400 (more than 0), got \(seconds)") }
        }
        for (flag, count) in [("--max-connections", maxConnections), ("--max-connections-per-address", maxConnectionsPerAddress),
                              ("--max-devices-per-user", maxDevicesPerUser), ("--max-held-pulls-per-user", maxHeldPullsPerUser)] {
            guard count > 0 else { throw ValidationError("\(flag): expected a positive number, got \(count)") }
        }
        guard authFailureLimit > 0, authFailureLimit.isFinite else {
            throw ValidationError("--auth-failure-limit: expected a positive number, got \(authFailureLimit)")
        }
        _ = try Self.tableScopes(tableScopes)
    }

    /// `--table-scope` values as the configuration takes them: TABLE=COLUMN, TABLE= for none.
    static func tableScopes(_ values: [String]) throws -> [String: String?] {
        var scopes: [String: String?] = [:]
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ValidationError("--table-scope: expected TABLE=COLUMN or TABLE= (no scope column), got \"\(value)\"")
            }
            guard scopes[String(parts[0])] == nil else { throw ValidationError("--table-scope: table \(parts[0]) given twice") }
            scopes[String(parts[0])] = parts[1].isEmpty ? .some(nil) : String(parts[1])
        }
        return scopes
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
            database: database, host: host, port: port, hold: .seconds(holdSeconds), maxBodyBytes: maxBodyBytes,
            stopsOnTerminationSignals: true, tokenVerifier: verifier
        )
        if let tlsCertificate, let tlsKey {
            do {
                configuration.certificate = try ServerCertificate(certificateFile: tlsCertificate, keyFile: tlsKey)
            } catch {
                throw CLIFailure(message: "sync-server: \(error.part == .certificate ? "--tls-cert" : "--tls-key"): \(error)", code: 2)
            }
        }
        configuration.retain = .seconds(retainDays * 86_400)
        configuration.maxClockSkew = .seconds(maxClockSkew)
        configuration.backlog = backlog
        configuration.rateLimit = RateLimit(requestsPerSecond: rateLimit, burst: rateBurst)
        configuration.authFailureLimit = RateLimit(requestsPerSecond: authFailureLimit, burst: authFailureLimit * 10)
        configuration.connections.headTimeout = .seconds(headTimeout)
        configuration.connections.bodyTimeout = .seconds(bodyTimeout)
        configuration.connections.idleTimeout = .seconds(idleTimeout)
        configuration.connections.maxConnections = maxConnections
        configuration.connections.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.maxDevicesPerUser = maxDevicesPerUser
        configuration.maxHeldPullsPerUser = maxHeldPullsPerUser
        configuration.tableScopes = try Self.tableScopes(tableScopes)
        // Each connection (a long poll held open, say) is a file descriptor: take what the hard
        // limit allows rather than a shell's default soft limit of 1024, and say what it is.
        let descriptors = FileDescriptorLimit.raiseToHard().soft
        let auth = (verifier.map { "auth: " + $0.algorithms.joined(separator: ", ") } ?? "INSECURE: no auth, every device sees every row")
            + "; rate limit: \(configuration.rateLimit); backlog \(backlog); open files \(descriptors == Int.max ? "unlimited" : String(descriptors))"
            + "; connections \(configuration.connections.capped(openFiles: descriptors).maxConnections)"
        let (host, port, database) = (host, port, database)
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        Task {
            defer { finished.signal() }
            let server: SyncServer
            do {
                server = try await SyncServer.open(configuration: configuration)
            } catch {
                outcome.failure = DatabaseArgument.failure(database, error) { ($0 as? SyncServerError)?.message }
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
            let scheme = configuration.certificate == nil ? "http" : "https"
            StandardStreams.write("sync-server listening on \(scheme)://\(host):\(boundPort) (\(auth))\n", to: 1)
            do {
                try await server.waitUntilStopped()
            } catch {
                outcome.failure = CLIFailure(message: "sync-server: stopped: \(error)", code: 1)
            }
        }
        finished.wait()
        if let failure = outcome.failure { throw failure }
    }
}
