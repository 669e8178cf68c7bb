import Foundation
import Glibc
import SystemIO

/// `hybrid sync-server --port 0 --db FILE` as a child process, as a user starts it beside an app
/// (scripts/with-sync-server does the same for `make demo`).
struct SyncServerChild: Sendable {
    private let process: SpawnedProcess
    /// Where it listens: `http://127.0.0.1:PORT`.
    let base: String

    /// Starts the server on `database` and returns once it says where it listens.
    static func start(database: String) async throws -> SyncServerChild {
        let log = database + ".log"
        let process = try SpawnedProcess(HybridProcess.binary.path, ["sync-server", "--port", "0", "--db", database, "--insecure-no-auth"],
                                         output: .file(log), error: .sameAsOutput)
        for _ in 0..<300 {
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let url = said.firstMatch(of: /sync-server listening on (http\S+)/)?.1 {
                return SyncServerChild(process: process, base: String(url))
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.signal(SIGTERM)
        let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        throw SyncServerChildError(message: "hybrid sync-server did not say where it listens:\n\(said)")
    }

    /// Stops it as a user would, with SIGTERM, and waits for it to exit; kills it if it has not
    /// after 10 s.
    func stop() async {
        process.signal(SIGTERM)
        for _ in 0..<500 where process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        process.signal(SIGKILL)
        await process.exit()
    }
}

struct SyncServerChildError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
