import Foundation
import Glibc
import SystemIO
import Testing

/// The `hybrid` binary, run as a user runs it. `make test` builds it before `swift test`;
/// `HYBRID_BINARY` may point at another build.
enum HybridProcess {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["HYBRID_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return repository.appendingPathComponent(".build/debug/hybrid")
    }

    static func fixture(_ path: String) -> String { fixtures.appendingPathComponent(path).path }

    struct Result: CustomStringConvertible {
        let status: Int32
        let standardOutput: String
        let standardError: String
        let elapsed: Duration

        var description: String { "exit \(status)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)" }
    }

    /// Runs `hybrid arguments...` in a fresh temporary folder (also its XDG_DATA_HOME), with
    /// `environment` added to the test's own and `input` as stdin (else /dev/null), and
    /// waits for it to exit; after `timeLimit`, when given, it is killed instead, so that a run
    /// that never goes idle fails its test rather than hanging the suite (its status is then
    /// 128 + SIGKILL).
    static func run(_ arguments: [String], timeLimit: Duration? = nil, environment extra: [String: String] = [:], input: String? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws -> Result {
        try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                     "\(binary.path) is missing: run `swift build` (make test does) before `swift test`",
                     sourceLocation: sourceLocation)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stdoutPath = folder.appendingPathComponent("stdout").path
        let stderrPath = folder.appendingPathComponent("stderr").path
        var environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "NO_COLOR": "1"]
        environment.merge(extra) { $1 }
        var standardInput = SpawnedProcess.Stream.null
        if let input {
            let inputPath = folder.appendingPathComponent("stdin").path
            try input.write(toFile: inputPath, atomically: true, encoding: .utf8)
            standardInput = .file(inputPath)
        }

        let clock = ContinuousClock()
        let started = clock.now
        let process = try SpawnedProcess(binary.path, arguments, environment: environment, directory: folder.path,
                                         input: standardInput, output: .file(stdoutPath), error: .file(stderrPath))
        let watchdog = timeLimit.map { limit in
            Task {
                try await Task.sleep(for: limit)
                process.signal(SIGKILL)
            }
        }
        defer { watchdog?.cancel() }
        let status = await process.exit()
        let elapsed = clock.now - started
        return Result(
            status: status,
            standardOutput: try String(contentsOfFile: stdoutPath, encoding: .utf8),
            standardError: try String(contentsOfFile: stderrPath, encoding: .utf8),
            elapsed: elapsed)
    }

    /// Runs another program the tests compare with or check through (node, tsc), found on PATH,
    /// to its end: its exit status and its stdout (with stderr too when `mergingErrors`). Waits
    /// without holding one of Swift's few pool threads (tsc takes seconds).
    static func tool(_ arguments: [String], input: String? = nil, directory: URL? = nil, environment extra: [String: String] = [:],
                     mergingErrors: Bool = false) async throws -> (status: Int32, output: String) {
        let process = try SpawnedProcess("/usr/bin/env", arguments, environment: extra, directory: directory?.path,
                                         input: input == nil ? .null : .pipe, output: .pipe, error: mergingErrors ? .sameAsOutput : .null)
        if let input { DetachedThread.start { process.writeInput(Array(input.utf8)) } }
        let data = await process.collectOutput()
        let status = await process.exit()
        #expect(status != 127, "\(arguments[0]) is not installed (scripts/install-deps installs it)")
        return (status, String(decoding: data, as: UTF8.self))
    }
}
