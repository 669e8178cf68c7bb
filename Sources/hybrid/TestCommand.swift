import ArgumentParser
import HybridHost

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run JS test files against the real services and print TAP 14.",
        discussion: """
            Each file runs in a fresh engine with a fresh temporary data folder, with results checked
            against the contracts. Folders are searched for *.test.js, *.test.ts (and .mjs, .mts, .cjs, .cts). A file may restrict its
            grants with a line "// @grants device,storage"; otherwise --grant applies (default all).
            Exit 0 only if every test passes.
            """
    )

    @Argument(help: "Test files or folders (default: the current folder).")
    var paths: [String] = []

    @Option(help: "Run only tests whose full name (\"describe > test\") contains this text.")
    var filter: String?

    @Option(name: .customLong("grant"), help: "Grants for files without their own @grants line (default: all).")
    var grants: [String] = []

    @Option(name: .customLong("time-limit"), help: "Stop a synchronous run of JS longer than this many seconds.")
    var timeLimit: Double?

    @Option(name: .customLong("arg"), help: "A value for Hybrid.args in every test file (repeatable), such as a test server's URL.")
    var scriptArguments: [String] = []

    func run() throws {
        let files: [String]
        do {
            files = try TestRunner.collect(paths.isEmpty ? ["."] : paths)
        } catch {
            throw CLIFailure(message: error.message, code: 2)
        }
        guard !files.isEmpty else {
            throw CLIFailure(message: "hybrid test: no *.test.js or *.test.ts files under \(paths.isEmpty ? "." : paths.joined(separator: ", "))", code: 1)
        }
        var runner = TestRunner(filter: filter)
        if !grants.isEmpty { runner.grantFlags = grants.flatMap { $0.split(separator: ",").map(String.init) } }
        runner.timeLimitSeconds = timeLimit
        runner.arguments = scriptArguments
        let totals = runner.run(files: files)
        if !totals.succeeded { throw CLIFailure(message: "", code: 1) }
    }
}
