import Foundation
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
    /// that never goes idle fails its test rather than hanging the suite. (SIGKILL: a child
    /// inherits the test process's signal mask, in which SIGTERM may be blocked.)
    static func run(_ arguments: [String], timeLimit: Duration? = nil, environment extra: [String: String] = [:], input: String? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws -> Result {
        try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                     "\(binary.path) is missing: run `swift build` (make test does) before `swift test`",
                     sourceLocation: sourceLocation)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stdoutURL = folder.appendingPathComponent("stdout")
        let stderrURL = folder.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: stdoutURL)
        let stderr = try FileHandle(forWritingTo: stderrURL)

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { $1 }
        process.environment = environment
        if let input {
            let inputURL = folder.appendingPathComponent("stdin")
            try input.write(to: inputURL, atomically: true, encoding: .utf8)
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        process.standardOutput = stdout
        process.standardError = stderr

        let clock = ContinuousClock()
        let started = clock.now
        let watchdog = timeLimit.map { limit in
            Task {
                try await Task.sleep(for: limit)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
        }
        defer { watchdog?.cancel() }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let elapsed = clock.now - started
        try stdout.close()
        try stderr.close()
        return Result(
            status: status,
            standardOutput: try String(contentsOf: stdoutURL, encoding: .utf8),
            standardError: try String(contentsOf: stderrURL, encoding: .utf8),
            elapsed: elapsed)
    }

    /// Runs another program the tests compare with or check through (node, tsc), found on PATH,
    /// to its end: its exit status and its stdout (with stderr too when `mergingErrors`).
    static func tool(_ arguments: [String], input: String? = nil, directory: URL? = nil, environment extra: [String: String] = [:],
                     mergingErrors: Bool = false) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = mergingErrors ? output : FileHandle.nullDevice
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        try process.run()
        if let inputPipe, let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus != 127, "\(arguments[0]) is not installed (scripts/install-deps installs it)")
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
