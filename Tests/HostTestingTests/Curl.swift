import Foundation

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
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["--silent", "--max-time", "20", "--data-binary", body, "-H", "Content-Type: text/plain"] + extra + [url]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            let started = Date()
            do { try process.run() } catch { return Outcome(exitCode: -1, body: "\(error)", seconds: 0) }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Outcome(exitCode: process.terminationStatus, body: String(decoding: data, as: UTF8.self),
                           seconds: Date().timeIntervalSince(started))
        }
    }
}
