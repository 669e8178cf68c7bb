import Foundation
import HostTesting

/// A real `hybrid sync-server` in a child process, insecure and without a rate limit, on a free
/// port: an instance of a deployment that a test can SIGKILL.
final class SyncServerProcess: SyncServerEndpoint, @unchecked Sendable {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    /// Starts `hybrid sync-server --db database` with `options` and returns once it says where it listens.
    static func start(database: String, options: [String] = []) async throws -> SyncServerProcess {
        guard let hybrid = BuiltHybrid.path else { throw TestFailure("no hybrid binary beside the tests (swift build first)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: hybrid)
        process.arguments = ["sync-server", "--port", "0", "--insecure-no-auth", "--rate-limit", "0", "--db", database] + options
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is "sync-server listening on http://127.0.0.1:PORT (...)".
        let line = await Task.detached {
            var text = Data()
            while !text.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text.append(chunk)
            }
            return String(decoding: text, as: UTF8.self)
        }.value
        guard let range = line.range(of: "http://127.0.0.1:"),
              let port = Int(line[range.upperBound...].prefix(while: \.isNumber)) else {
            process.terminate()
            throw TestFailure("hybrid sync-server did not start: \(line)")
        }
        return SyncServerProcess(process: process, port: port)
    }

    /// SIGKILL: no graceful shutdown, transactions in flight cut off where they are.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
