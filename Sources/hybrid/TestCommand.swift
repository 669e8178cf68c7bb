import ArgumentParser
import HybridHost
import SystemIO

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run JS test files against the real services and print TAP 14.",
        discussion: """
            Each file runs in a fresh engine with a fresh temporary data folder, with results \
            checked against the contracts. Folders are searched for *.test.js, *.test.ts (and \
            .mjs, .mts, .cjs, .cts). A file may restrict its grants with a line \
            "// @grants device,storage"; otherwise --grant applies (default all). Exit 0 only if \
            every test passes and some test ran (a --filter that matches no test fails).

            After each test, what it started and left running (a call in flight, a subscription \
            or long-poll, a timer, a mounted view) fails it, naming each with the line that started \
            it, and is ended; test(name, fn, { allowOpen: true }) or a "// @allow-open" line keeps \
            such work on purpose. --run-timeout ends the whole run after so many seconds, printing \
            what was still running.

            --watch keeps running: when a test file changes, or a module one loaded, the test files \
            it touches run again, each rerun with its TAP and summary.

            --inspect serves each file's JavaScriptCore context to a debugger in turn, as `hybrid \
            run --inspect` serves an app's (stderr's first line is "Debugger listening on \
            ws://127.0.0.1:PORT/SECRET"), each a target of WebKit's Target domain on that one \
            WebSocket: Target.targetCreated, Target.dispatchMessageFromTarget and \
            Target.targetDestroyed from the host, Target.sendMessageToTarget from the debugger. \
            --inspect-brk holds each file until the debugger sends its target \
            Runtime.runIfWaitingForDebugger (time to set breakpoints), and pauses at the first \
            file's first statement. Under either, tests have no timeout. `hybrid debug-adapter` \
            launches a test file or folder this way.
            """
    )

    @Argument(help: "Test files or folders (default: the current folder).")
    var paths: [String] = []

    @Option(help: "Run only tests whose full name (\"describe > test\") contains this text.")
    var filter: String?

    @Option(name: .customLong("grant"), help: "Grants for files without their own @grants line (default: all).")
    var grants: [String] = []

    @Option(name: .customLong("time-limit"), help: "Stop a synchronous run of JS that uses more than this many seconds of CPU time.")
    var timeLimit: Double?

    @Option(name: .customLong("run-timeout"), help: "End the whole run after this many seconds (wall clock), printing what the file then running had still running.")
    var runTimeout: Double?

    @Option(name: .customLong("arg"), help: "A value for Hybrid.args in every test file (repeatable), such as a test server's URL.")
    var scriptArguments: [String] = []

    @Flag(name: .customLong("watch"), help: "Rerun the test files a change touches (the file, or a module it loaded); until interrupted.")
    var watch = false

    @OptionGroup var inspect: InspectFlags

    func validate() throws {
        try inspect.validate(watch: watch)
    }

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
        if let runTimeout, !(runTimeout > 0) {
            throw CLIFailure(message: "--run-timeout: expected a number of seconds > 0, got \(runTimeout)", code: 2)
        }
        var runner = TestRunner(filter: filter)
        runner.runTimeoutSeconds = runTimeout
        if !grants.isEmpty { runner.grantFlags = grants.flatMap { $0.split(separator: ",").map(String.init) } }
        runner.timeLimitSeconds = timeLimit
        runner.arguments = scriptArguments
        if watch {
            do {
                try TestWatcher(paths: paths.isEmpty ? ["."] : paths, runner: runner).run()
            } catch {
                throw CLIFailure(message: error.message, code: 2)
            }
            return
        }
        if let options = inspect.options {
            do {
                let inspector = try TestInspector.start(options)
                runner.inspector = inspector
                StandardStreams.write("Debugger listening on \(inspector.hub.frontendURL)\n", to: 2)
            } catch {
                throw CLIFailure(message: error.message, code: 1)
            }
        }
        defer { runner.inspector?.hub.close() }
        let totals = runner.run(files: files)
        if !totals.succeeded { throw CLIFailure(message: "", code: 1) }
    }
}
