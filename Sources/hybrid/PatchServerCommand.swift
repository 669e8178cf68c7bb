import ArgumentParser
import Dispatch
import HTTPServing
import PatchServer
import PostgresStores
import SyncAuth
import SystemIO

/// `hybrid patch-server`: the patch server (`serve`, the default), its tokens and its apps.
struct PatchServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch-server",
        abstract: "The patch server: run it (serve, the default), mint a token for it, register an app's patch keys.",
        subcommands: [PatchServerServeCommand.self, SyncServerTokenCommand.self, PatchServerAppCommand.self],
        defaultSubcommand: PatchServerServeCommand.self
    )
}

struct PatchServerServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the patch server: publishers publish signed patches, devices check for them and report on them.",
        discussion: """
            HTTP+JSON under /v1/apps/APP: PUT (the app's patch keys), POST patches (publish), POST \
            patches/VERSION/rollout|halt|resume|revoke, GET status, GET audit (publishers: a token \
            with scope publish:APP), POST check (devices; a token is optional) and POST reports \
            (devices: a token with scope device:APP whose sub is the device id). README.md, \
            "hybrid patch-server", has the protocol. State lives in --db: a SQLite file for one server, \
            or postgres://USER@HOST:PORT/DATABASE for any number of servers over one database \
            (?sslmode=verify-full&sslrootcert=FILE as for psql; the password from PGPASSWORD).

            Tokens are the sync server's: HS256 with --auth-secret-file, EdDSA with --auth-public-key; \
            `hybrid patch-server token` mints them. Prints "patch-server listening on http://HOST:PORT" \
            once bound, then serves until SIGINT or SIGTERM.
            """
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int

    @Option(name: .customLong("db"), help: ArgumentHelp("Where apps, patches, votes and the audit log live: a SQLite file (created if missing), or postgres://USER@HOST:PORT/DATABASE shared by several servers.", valueName: "file-or-url"))
    var database: String

    @Option(help: "The address to bind (plain HTTP: keep it on loopback unless a proxy adds TLS).")
    var host: String = "127.0.0.1"

    @Option(name: .customLong("auth-secret-file"), help: "Verify HS256 tokens with the secret in this file (at least 16 bytes).")
    var authSecretFile: String?

    @Option(name: .customLong("auth-public-key"), help: "Verify EdDSA tokens with this Ed25519 public key (PEM).")
    var authPublicKey: String?

    @Flag(name: .customLong("insecure-no-auth"), help: "Run without tokens: anyone who can reach the server publishes. Local demos only.")
    var insecureNoAuth = false

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body accepted (a patch with its sources).")
    var maxBodyBytes: Int = 16 * 1024 * 1024

    @Option(name: .customLong("check-after"), help: "Seconds a device is told to wait before its next check (checkAfter); none by default.")
    var checkAfter: Int?

    @Option(name: .customLong("rate-limit"), help: "Requests a second per caller (a token's subject; per address for a check without a token); 0 turns it off.")
    var rateLimit: Double = RateLimit.standard.requestsPerSecond

    @Option(name: .customLong("rate-burst"), help: "Requests a quiet caller may make at once (default: twice --rate-limit).")
    var rateBurst: Double?

    @Option(name: .customLong("auth-failure-limit"), help: "Failed authentications a second one address may have, after a burst of ten times as many.")
    var authFailureLimit: Double = 10

    func validate() throws {
        guard authSecretFile != nil || authPublicKey != nil || insecureNoAuth else {
            throw ValidationError("expected --auth-secret-file FILE and/or --auth-public-key FILE, or --insecure-no-auth for a local demo")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port: expected 0...65535, got \(port)") }
        try DatabaseArgument.validate(database)
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes: expected a positive number, got \(maxBodyBytes)") }
        guard rateLimit >= 0, rateLimit.isFinite else { throw ValidationError("--rate-limit: expected a number >= 0, got \(rateLimit)") }
        if let rateBurst {
            guard rateBurst >= 1, rateBurst.isFinite else { throw ValidationError("--rate-burst: expected a number >= 1, got \(rateBurst)") }
        }
        guard authFailureLimit > 0, authFailureLimit.isFinite else {
            throw ValidationError("--auth-failure-limit: expected a positive number, got \(authFailureLimit)")
        }
    }

    func run() throws {
        var verifier: TokenVerifier?
        if !insecureNoAuth {
            do {
                verifier = try TokenVerifier(secretFile: authSecretFile, publicKeyFile: authPublicKey)
            } catch {
                throw CLIFailure(message: "patch-server: \(authSecretFile != nil ? "--auth-secret-file" : "--auth-public-key"): \(error.message)", code: 2)
            }
        }
        var configuration = PatchServerConfiguration(database: database, host: host, port: port, tokenVerifier: verifier,
                                                     maxBodyBytes: maxBodyBytes, stopsOnTerminationSignals: true, checkAfter: checkAfter)
        configuration.rateLimit = RateLimit(requestsPerSecond: rateLimit, burst: rateBurst)
        configuration.authFailureLimit = RateLimit(requestsPerSecond: authFailureLimit, burst: authFailureLimit * 10)
        let auth = (verifier.map { "auth: " + $0.algorithms.joined(separator: ", ") } ?? "INSECURE: no auth") + "; rate limit: \(configuration.rateLimit)"
        let (host, port, database) = (host, port, database)
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        Task {
            defer { finished.signal() }
            let server: PatchServer
            do {
                server = try await PatchServer.open(configuration: configuration)
            } catch {
                outcome.failure = DatabaseArgument.failure(database, error) { ($0 as? PostgresStoreError)?.message }
                return
            }
            do {
                let bound = try await server.start()
                StandardStreams.write("patch-server listening on http://\(host):\(bound) (\(auth))\n", to: 1)
                try await server.waitUntilStopped()
            } catch {
                outcome.failure = CLIFailure(message: "patch-server: cannot listen on \(host):\(port): \(error)", code: 1)
            }
            await server.stop()
        }
        finished.wait()
        if let failure = outcome.failure { throw failure }
    }
}

/// `hybrid patch-server app add APP --key KEY...`.
struct PatchServerAppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Register an app's patch keys on a patch server.",
        subcommands: [Add.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set the Ed25519 public keys (app.json patchKeys) a patch of APP must be signed by.",
            discussion: "hybrid patch-server app add demo --key PUBLIC_KEY --server http://127.0.0.1:8790 --token \"$(cat publisher.jwt)\""
        )

        @Argument(help: "The app's name (app.json name).")
        var app: String

        @Option(name: .customLong("key"), help: "A public key, base64, as `hybrid patch keygen` prints it (repeat for more).")
        var keys: [String] = []

        @OptionGroup var server: PatchServerOptions

        func validate() throws {
            guard !keys.isEmpty else { throw ValidationError("--key: expected at least one public key") }
        }

        func run() throws {
            let answer = try server.call("PUT", "/v1/apps/\(PatchServerOptions.segment(app))", body: ["keys": .array(keys.map { .string($0) })])
            print("\(app): \(answer["keys"]?.arrayValue?.count ?? 0) key(s)")
        }
    }
}
