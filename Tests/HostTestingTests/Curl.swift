import Foundation
import SystemIO

/// The curl command line, for the cases where what matters is how libcurl itself takes a fault.
enum Curl {
    struct Outcome: Sendable {
        /// curl's exit code: 0, or e.g. 52 (empty reply from server), 18 (partial file).
        let exitCode: Int32
        let body: String
        let seconds: Double
    }

    /// POSTs `body` to `url`; `extra` are further curl arguments.
    static func post(_ url: String, body: String, extra: [String] = []) async -> Outcome {
        await Blocking.run {
            let started = Date()
            let arguments = ["--silent", "--max-time", "20", "--data-binary", body, "-H", "Content-Type: text/plain"] + extra + [url]
            do {
                let result = try ChildProcess.run("/usr/bin/curl", arguments)
                return Outcome(exitCode: result.status, body: String(decoding: result.output, as: UTF8.self),
                               seconds: Date().timeIntervalSince(started))
            } catch {
                return Outcome(exitCode: -1, body: "\(error)", seconds: 0)
            }
        }
    }
}
