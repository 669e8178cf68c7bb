import Foundation
import HostTesting
import Testing

/// Documentation that runs: every ```js block of the READMEs is run by the real `hybrid`, so an
/// example cannot drift from what the code does. The rules for writing one are in
/// ARCHITECTURE.md, "Examples that run".
@Suite("the READMEs' examples", .serialized)
struct DocumentationTests {
    static let files = ["README.md", "js/README.md"]

    static let blocks: [DocumentationBlock] = files.flatMap { file in
        let text = (try? String(contentsOf: HybridProcess.repository.appendingPathComponent(file), encoding: .utf8)) ?? ""
        return DocumentationBlock.blocks(in: text, file: file)
    }

    /// A run that never goes idle (a subscription left running) fails after this long.
    static let timeLimit = Duration.seconds(60)

    @Test("each README has js examples to run")
    func found() {
        for file in Self.files {
            let runnable = Self.blocks.filter { block in
                guard block.file == file else { return false }
                if case .notRunnable = block.treatment { return false }
                return true
            }
            #expect(!runnable.isEmpty, "\(file): no ```js block found to run")
        }
    }

    @Test("a js example runs without an uncaught error and prints what it shows", arguments: blocks)
    func example(_ block: DocumentationBlock) async throws {
        let location = SourceLocation(fileID: "HybridHostTests/\(block.file)",
                                      filePath: HybridProcess.repository.appendingPathComponent(block.file).path,
                                      line: block.line, column: 1)
        switch block.treatment {
        case .notRunnable:
            return
        case .badMarker(let message):
            Issue.record("\(block.testDescription): \(message)", sourceLocation: location)
            return
        case .script, .beside, .testFile:
            break
        }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // The servers the block names, stopped however the run ends.
        var code = block.code
        var stops: [@Sendable () async -> Void] = []
        let outcome: Result<(script: URL, result: HybridProcess.Result), any Error>
        do {
            if code.contains(DocumentationBlock.exampleServer) {
                let server = try await ExampleHTTPServer.start()
                stops.append { await server.stop() }
                code = code.replacingOccurrences(of: DocumentationBlock.exampleServer, with: server.base)
            }
            if code.contains(DocumentationBlock.syncServer) {
                let server = try await LocalSyncServer.startChild(executable: HybridProcess.binary.path, database: folder.appendingPathComponent("sync-server.sqlite").path)
                stops.append { await server.stop() }
                code = code.replacingOccurrences(of: DocumentationBlock.syncServer, with: server.base)
            }
            let ready = DocumentationBlock(file: block.file, line: block.line, code: code, treatment: block.treatment)
            outcome = .success(try await Self.run(ready, in: folder))
        } catch {
            outcome = .failure(error)
        }
        for stop in stops { await stop() }
        let (script, result) = try outcome.get()

        // Stack traces name the README, whose lines the program kept.
        let report = "\(result)".replacingOccurrences(of: script.path, with: block.file)
        if result.elapsed >= Self.timeLimit {
            Issue.record("\(block.testDescription): still running after \(Self.timeLimit): a subscription or timer never stops\n\(report)", sourceLocation: location)
        } else if result.status != 0 {
            Issue.record("\(block.testDescription): the example failed\n\(report)", sourceLocation: location)
        }
        var printed = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)[...]
        for line in block.shownOutput {
            guard let found = printed.firstIndex(where: { $0 == line }) else {
                Issue.record("\(block.testDescription): the example shows `\(line)`, which it did not print (in that order)\n\(report)", sourceLocation: location)
                break
            }
            printed = printed[(found + 1)...]
        }
    }

    /// Writes `block`'s program into `folder` (or into a copy of the app it runs beside) and runs
    /// it as its treatment says.
    private static func run(_ block: DocumentationBlock, in folder: URL) async throws -> (script: URL, result: HybridProcess.Result) {
        var script = folder.appendingPathComponent("readme-example.js")
        var arguments = ["run", script.path, "--grant", "all", "--data-dir", folder.appendingPathComponent("data").path]
        if case .beside(let app) = block.treatment {
            let copy = folder.appendingPathComponent("app")
            try FileManager.default.copyItem(at: HybridProcess.repository.appendingPathComponent(app), to: copy)
            script = copy.appendingPathComponent("readme-example.js")
            arguments[1] = script.path
        } else if case .testFile(let name) = block.treatment {
            script = folder.appendingPathComponent(name)
            arguments = ["test", script.path, "--grant", "all"]
        }
        try block.program.write(to: script, atomically: true, encoding: .utf8)
        return (script, try await HybridProcess.run(arguments, timeLimit: timeLimit))
    }
}
