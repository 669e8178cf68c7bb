import ArgumentParser
import Dispatch
import SyncServer
import SystemIO

/// `hybrid sync-server`: the reference sync server, in the foreground until SIGINT or SIGTERM.
struct SyncServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-server",
        abstract: "Run the reference sync server: devices push ops, pull the shared log, and converge.",
        discussion: """
            HTTP+JSON: POST /v1/devices, POST /v1/push, GET /v1/pull, GET /v1/packets/ID, GET /v1/snapshot, \
            GET /v1/health. Everything lives in the --db file: a server restarted on it carries on.

            Prints "sync-server listening on http://HOST:PORT" once bound (the real port for --port 0), \
            then serves until SIGINT or SIGTERM.
            """
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int

    @Option(name: .customLong("db"), help: "The SQLite file that holds devices, the op log and the state (created if missing).")
    var database: String

    @Option(help: "The address to bind. The server has no TLS: keep it on loopback unless a proxy fronts it.")
    var host: String = "127.0.0.1"

    @Option(name: .customLong("hold-seconds"), help: "How long a packet may wait for the packet it depends on before it is rejected.")
    var holdSeconds: Double = 30

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body accepted (larger ones get 413).")
    var maxBodyBytes: Int = 8 * 1024 * 1024

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port: expected 0...65535, got \(port)") }
        guard !database.isEmpty else { throw ValidationError("--db: expected a file path") }
        guard holdSeconds > 0 else { throw ValidationError("--hold-seconds: expected a positive number, got \(holdSeconds)") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes: expected a positive number, got \(maxBodyBytes)") }
    }

    /// main.swift runs commands synchronously, so this blocks the main thread on a semaphore while a
    /// task runs the server on Swift's concurrency pool and NIO's event loops; neither needs the main
    /// thread, and the signals that stop the server arrive through Dispatch sources, not on it.
    func run() throws {
        let configuration = SyncServerConfiguration(
            databasePath: database, host: host, port: port, holdSeconds: holdSeconds, maxBodyBytes: maxBodyBytes,
            stopsOnTerminationSignals: true
        )
        let server: SyncServer
        do {
            server = try SyncServer(configuration: configuration)
        } catch {
            throw CLIFailure(message: "--db: cannot open \(database): \(error)", code: 1)
        }
        let (host, port) = (host, port)
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        Task {
            defer { finished.signal() }
            let boundPort: Int
            do {
                boundPort = try await server.start()
            } catch {
                outcome.failure = CLIFailure(message: "sync-server: cannot listen on \(host):\(port): \(error)", code: 1)
                return
            }
            StandardStreams.write("sync-server listening on http://\(host):\(boundPort)\n", to: 1)
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
