import Foundation
import Glibc
import HostTesting

/// A real `hybrid sync-server` in a child process, insecure and without a rate limit, on a free
/// port: an instance of a deployment that a test can SIGKILL.
final class SyncServerProcess: SyncServerEndpoint, Sendable {
    let process: LiveProcess
    let port: Int

    private init(process: LiveProcess, port: Int) {
        self.process = process
        self.port = port
    }

    /// Starts `hybrid sync-server --db database` with `options` and returns once it says where it listens.
    static func start(database: String, options: [String] = []) async throws -> SyncServerProcess {
        guard let hybrid = BuiltHybrid.path else { throw TestFailure("no hybrid binary beside the tests (swift build first)") }
        let process = try LiveProcess(hybrid, ["sync-server", "--port", "0", "--insecure-no-auth", "--rate-limit", "0", "--db", database] + options)
        // The first line is "sync-server listening on http://127.0.0.1:PORT (...)".
        _ = await process.wait(timeout: 60) { !$0.outputLines.isEmpty || $0.exitStatus != nil }
        let line = process.output.outputLines.first?.text ?? ""
        guard let range = line.range(of: "http://127.0.0.1:"),
              let port = Int(line[range.upperBound...].prefix(while: \.isNumber)) else {
            process.stop()
            throw TestFailure("hybrid sync-server did not start: \(line)\n\(process.output.standardError)")
        }
        return SyncServerProcess(process: process, port: port)
    }

    /// SIGKILL: no graceful shutdown, transactions in flight cut off where they are.
    func kill() {
        process.stop()
    }

    /// SIGTERM, as a user stops it, and waits for it to end.
    func stop() {
        process.signal(SIGTERM)
        _ = process.waitBlocking(timeout: 30) { $0.exitStatus != nil }
        process.stop()
    }
}
