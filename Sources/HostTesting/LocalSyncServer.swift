import Foundation
import HTTPServing
import SyncAuth
import SyncServer
import SystemIO

/// A sync server for one test or benchmark, on 127.0.0.1 and a free port, over a SQLite file or a
/// PostgreSQL database: a ``SyncServer`` in this process (``start(store:database:hold:maxBodyBytes:rateLimit:tokenVerifier:configure:)``,
/// ``with(store:hold:maxBodyBytes:rateLimit:tokenVerifier:configure:_:)``), or `hybrid
/// sync-server` as a child process (``startChild(executable:database:authSecretFile:rateLimit:arguments:)``)
/// for what needs a process of its own: a SIGKILL mid-push, the command line's flags, CPU time
/// and memory read from /proc.
///
/// ```swift
/// try await LocalSyncServer.with(store: .postgres, tokenVerifier: verifier) { server in
///     // requests to server.base + "/v1/devices"; server.server is the SyncServer
/// }   // stopped, and its database dropped, however the body ended
/// ```
public final class LocalSyncServer: Sendable {
    private enum Running: Sendable {
        case inProcess(SyncServer)
        case child(ChildServerProcess)
    }

    public let port: Int
    /// The SQLite file, or the PostgreSQL database's URL.
    public let database: String
    /// The PostgreSQL database the launcher made for this server, dropped by ``finish()``.
    public let postgres: PostgresTestDatabase?
    private let running: Running

    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, database: String, postgres: PostgresTestDatabase?, running: Running) {
        self.port = port
        self.database = database
        self.postgres = postgres
        self.running = running
    }

    // MARK: In this process

    /// Starts a ``SyncServer`` in this process; with no `database`, on a new one of `store` (a
    /// file in the temporary directory, or a new PostgreSQL database). Without a `tokenVerifier`,
    /// the server is insecure (devices register freely). `configure` sets what the other
    /// parameters do not. The hold is ten minutes unless given (the product's is 30 s): a held
    /// packet must outlive the steps of a test on a loaded machine, and a test about expiry says
    /// how short it wants it.
    public static func start(store: TestStore = .sqlite, database: String? = nil, hold: Duration = .seconds(600),
                             maxBodyBytes: Int = 8 * 1024 * 1024, rateLimit: RateLimit = .standard,
                             tokenVerifier: TokenVerifier? = nil,
                             configure: (inout SyncServerConfiguration) -> Void = { _ in }) async throws -> LocalSyncServer {
        let (location, postgres): (String, PostgresTestDatabase?) =
            if let database { (database, nil) } else { try await store.freshDatabase(prefix: "sync-server-test") }
        var configuration = SyncServerConfiguration(database: location, hold: hold, maxBodyBytes: maxBodyBytes,
                                                    tokenVerifier: tokenVerifier)
        configuration.rateLimit = rateLimit
        configure(&configuration)
        do {
            return try await start(configuration, postgres: postgres)
        } catch {
            await postgres?.drop()
            throw error
        }
    }

    /// Runs `body` against a new server in this process, then stops it and deletes its database,
    /// whatever `body` did.
    public static func with(store: TestStore = .sqlite, hold: Duration = .seconds(600), maxBodyBytes: Int = 8 * 1024 * 1024,
                            rateLimit: RateLimit = .standard, tokenVerifier: TokenVerifier? = nil,
                            configure: (inout SyncServerConfiguration) -> Void = { _ in },
                            _ body: (LocalSyncServer) async throws -> Void) async throws {
        let server = try await start(store: store, hold: hold, maxBodyBytes: maxBodyBytes, rateLimit: rateLimit,
                                     tokenVerifier: tokenVerifier, configure: configure)
        do {
            try await body(server)
        } catch {
            await server.finish()
            throw error
        }
        await server.finish()
    }

    /// Another server in this process on the same database and configuration, beside this one or
    /// after it: a restart, or a second instance of one deployment. ``finish()`` on either deletes
    /// the database.
    public func anotherInstance() async throws -> LocalSyncServer {
        var configuration = server.configuration
        configuration.port = 0
        return try await Self.start(configuration, postgres: postgres)
    }

    private static func start(_ configuration: SyncServerConfiguration, postgres: PostgresTestDatabase?) async throws -> LocalSyncServer {
        var configuration = configuration
        configuration.host = "127.0.0.1"
        let server = try await SyncServer.open(configuration: configuration)
        let port: Int
        do {
            port = try await server.start()
        } catch {
            await server.stop()
            throw error
        }
        return LocalSyncServer(port: port, database: configuration.database, postgres: postgres, running: .inProcess(server))
    }

    /// The server, for a server started in this process (its store, its held pulls, its
    /// configuration). A child has none here: asking is a mistake in the test.
    public var server: SyncServer {
        guard case .inProcess(let server) = running else {
            preconditionFailure("LocalSyncServer.server: this server is a child process (\(database)); it has no SyncServer in this process")
        }
        return server
    }

    // MARK: A child process

    /// Starts `executable` (the `hybrid` built beside the tests, by default) as `hybrid
    /// sync-server serve --port 0 --db database` and returns once it says where it listens (for at
    /// most `timeout` seconds, waiting on a thread of its own, off the cooperative pool that tests
    /// and in-process servers share). HS256 tokens are verified
    /// with the secret in `authSecretFile`; without one the server is insecure
    /// (`--insecure-no-auth`). `arguments` are further flags (`--backlog 900`). ``stop()`` and
    /// ``stopProcess()`` leave the database; ``finish()`` deletes it.
    public static func startChild(executable: String? = nil, database: String, authSecretFile: String? = nil,
                                  rateLimit: RateLimit = .standard, arguments: [String] = [],
                                  timeout: Double = 60) async throws -> LocalSyncServer {
        guard let executable = executable ?? BuiltHybrid.path else {
            throw LocalSyncServerError("no hybrid binary beside the tests (swift build first)")
        }
        var flags = ["sync-server", "serve", "--host", "127.0.0.1", "--port", "0", "--db", database]
        flags += authSecretFile.map { ["--auth-secret-file", $0] } ?? ["--insecure-no-auth"]
        if rateLimit != .standard {
            flags += ["--rate-limit", "\(rateLimit.requestsPerSecond)"]
            if !rateLimit.isOff { flags += ["--rate-burst", "\(rateLimit.burst)"] }
        }
        let child = try ChildServerProcess(executable: executable, arguments: flags + arguments)
        // "sync-server listening on http://127.0.0.1:PORT (auth: ...)", or https://
        let line = await DetachedThread.run { child.firstLine(timeout: timeout) } ?? ""
        guard let range = line.range(of: "://127.0.0.1:"),
              let port = Int(line[range.upperBound...].prefix(while: \.isNumber)) else {
            child.kill()
            throw LocalSyncServerError("""
                \(executable) \((flags + arguments).joined(separator: " ")) did not say where it listens within \(timeout) s
                standard output: \(child.standardOutput.isEmpty ? "(nothing)" : child.standardOutput)
                standard error: \(child.standardError.isEmpty ? "(nothing)" : child.standardError)
                """)
        }
        return LocalSyncServer(port: port, database: database, postgres: nil, running: .child(child))
    }

    /// The child's process id (for its CPU time and memory in /proc); nil in this process.
    public var processIdentifier: pid_t? {
        guard case .child(let child) = running else { return nil }
        return child.pid
    }

    /// The last 64 KiB the child has written to its standard error ("" in this process).
    public var standardError: String {
        guard case .child(let child) = running else { return "" }
        return child.standardError
    }

    /// SIGTERM to a child, without waiting: held pulls answer, requests in flight finish, it exits.
    public func terminate() {
        guard case .child(let child) = running else { preconditionFailure("LocalSyncServer.terminate(): not a child process") }
        child.terminate()
    }

    /// SIGKILL to a child, and waits for it: no graceful shutdown, transactions in flight cut off
    /// where they are.
    public func kill() {
        guard case .child(let child) = running else { preconditionFailure("LocalSyncServer.kill(): not a child process") }
        child.kill()
    }

    /// Stops a child from synchronous code (a `defer`): SIGTERM, then waits for it to exit;
    /// SIGKILL after 10 s. Reaped once: a second call, or one after ``kill()``, finds it gone.
    public func stopProcess() {
        guard case .child(let child) = running else { preconditionFailure("LocalSyncServer.stopProcess(): not a child process; await stop()") }
        child.stop()
    }

    // MARK: Stopping

    /// Stops the server, keeping its database for a successor.
    public func stop() async {
        switch running {
        case .inProcess(let server): await server.stop()
        case .child(let child): await DetachedThread.run { child.stop() }
        }
    }

    /// Stops the server and deletes its database: drops the PostgreSQL database the launcher
    /// made, or removes the SQLite file and its `-wal` and `-shm`.
    public func finish() async {
        await stop()
        if let postgres {
            await postgres.drop()
        } else if !database.hasPrefix("postgres://") && !database.hasPrefix("postgresql://") {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        }
    }

}

/// Why a ``LocalSyncServer`` could not start.
public struct LocalSyncServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    init(_ message: String) { self.message = message }
}
