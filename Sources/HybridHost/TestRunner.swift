import Bridge
import Engine
import Foundation
import Glibc
import JSON
import Synchronization
import SystemIO

/// `hybrid test`: runs JS test files inside the engine against the real services, each
/// in a fresh session with a fresh temporary data folder, and prints TAP 14.
public struct TestRunner: Sendable {
    public struct Totals: Sendable, Equatable {
        public var passed = 0
        public var failed = 0
        public var skipped = 0
        public var todo = 0
        /// Files that could not run (syntax error, uncaught error) or registered no test.
        public var brokenFiles = 0
        public var files = 0
        /// Files with a failed test, or broken.
        public var failedFiles = 0
        /// With a filter: how many tests' full names contain it (0 fails the run: nothing was tested).
        public var matched: Int?
        /// The modules each file loaded, itself and what it imports (real paths), by the file's path
        /// as given; empty for a broken file. Only when ``TestRunner/recordsModules`` is set.
        public var modules: [String: [String]] = [:]

        public init() {}
        public var succeeded: Bool { failed == 0 && brokenFiles == 0 && matched != 0 }
        /// As node's runner counts them, a file that could not run being one failed test.
        public var tests: Int { passed + failed + skipped + todo + brokenFiles }
        public var failures: Int { failed + brokenFiles }
    }

    public var filter: String?
    /// Grants for test files without a `// @grants a,b` line of their own. Default: all.
    public var grantFlags: [String] = ["all"]
    public var timeLimitSeconds: Double?
    /// Passed to every file as `Hybrid.args` (a test server's URL, say).
    public var arguments: [String] = []
    /// How long a file whose tests all passed may go on with work still pending before its run is
    /// ended, as vitest's teardown timeout does. The harness has already ended what it tracks (calls,
    /// subscriptions, timers, the view: each failing the test that left it, unless allowed), so
    /// this is for what it cannot see. A file with a failed test ends at once: a test that timed out
    /// still awaits, and may never return.
    public var leftoverGraceSeconds: Double = 10
    /// The whole run's limit in seconds of wall-clock time (`--run-timeout`): when it passes, the
    /// file running is ended, failed with what it still had running, and the files after it are
    /// not run. Nil: no limit. (A synchronous loop that never yields is `timeLimitSeconds`'s.)
    public var runTimeoutSeconds: Double?
    /// Whether each file's app.json `quotas.memoryBytes` is enforced (``AppRunOptions/guardsMemory``):
    /// off for runs inside a process that runs much else.
    public var guardsMemory = true
    /// Fill ``Totals/modules`` (for `--watch`, which reruns the files a change touches).
    public var recordsModules = false
    /// `--inspect` / `--inspect-brk`: each file's context is served to a debugger in turn, and the
    /// harness's timeouts are off (a test paused at a breakpoint must not fail for it).
    public var inspector: TestInspector?
    public var write: @Sendable (String) -> Void = { StandardStreams.write($0, to: 1) }
    /// The one-line summary after the TAP stream: on stderr, so that stdout stays strict TAP 14
    /// (a consumer in strict mode refuses any line that is not TAP).
    public var writeSummary: @Sendable (String) -> Void = { StandardStreams.write($0, to: 2) }

    public init(filter: String? = nil) { self.filter = filter }

    /// Test files under `paths`: files as given, folders searched for `*.test.js` (and `.ts`,
    /// `.mjs`, `.mts`, `.cjs`, `.cts`).
    public static func collect(_ paths: [String]) throws(AppLoadError) -> [String] {
        var files: [String] = []
        for path in paths {
            switch FileSystem.kind(of: path) {
            case .file: files.append(path)
            case .directory: files += TestFileSearch.find(in: path)
            case .missing: throw AppLoadError("\(path): no such test file or folder")
            }
        }
        return files
    }

    /// Runs `files` on a thread of its own (a run blocks while its engine works, which must not
    /// hold one of Swift's few cooperative threads) and returns what it printed.
    public func runCapturing(files: [String]) async -> (totals: Totals, output: String) {
        let output = Captured()
        var runner = self
        runner.write = { text in output.text.withLock { $0 += text } }
        runner.writeSummary = runner.write
        let configured = runner
        let totals = await DetachedThread.run { configured.run(files: files) }
        return (totals, output.text.withLock { $0 })
    }

    public func run(files: [String]) -> Totals {
        var totals = Totals()
        let started = MonotonicClock.now()
        let deadline = runTimeoutSeconds.map { started + UInt64($0 * 1e9) }
        write("TAP version 14\n")
        for (index, file) in files.enumerated() {
            let name = Self.tapEscaped(file)
            if let deadline, MonotonicClock.now() >= deadline {
                totals.brokenFiles += 1
                totals.failedFiles += 1
                let problem = "not run: the run's time limit (--run-timeout \(runTimeoutSeconds!.formatted()) s) had passed"
                write("not ok \(index + 1) - \(name)\n  ---\n  message: \(Self.yamlQuoted(problem))\n  ...\n")
                continue
            }
            write("# Subtest: \(name)\n")
            let result = runFile(file, deadline: deadline)
            totals.passed += result.passed
            totals.failed += result.failed
            totals.skipped += result.skipped
            totals.todo += result.todo
            if let matched = result.matched { totals.matched = (totals.matched ?? 0) + matched }
            if recordsModules { totals.modules[file] = result.modules }
            if let problem = result.problem {
                totals.brokenFiles += 1
                totals.failedFiles += 1
                write("not ok \(index + 1) - \(name)\n  ---\n  message: \(Self.yamlQuoted(problem))\n  ...\n")
            } else if result.failed > 0 {
                totals.failedFiles += 1
                write("not ok \(index + 1) - \(name)\n")
            } else {
                write("ok \(index + 1) - \(name)\n")
            }
        }
        totals.files = files.count
        if let filter, !filter.isEmpty, totals.matched == nil { totals.matched = 0 }
        write("1..\(files.count)\n")
        write(Self.summaryComments(totals, milliseconds: Double(MonotonicClock.now() - started) / 1_000_000))
        writeSummary(Self.summaryLine(totals))
        // (A broken file fails the run already, and may hold the tests the filter meant.)
        if let filter, totals.matched == 0, totals.brokenFiles == 0 {
            writeSummary("hybrid test: --filter \"\(filter)\" matched no test in \(files.count) file\(files.count == 1 ? "" : "s"); a run that tests nothing fails\n")
        }
        return totals
    }

    /// The totals as node's TAP reporter ends its stream (`# tests 7`, `# pass 6`, ...), with the
    /// files after them: TAP comments, so stdout stays strict TAP 14.
    static func summaryComments(_ totals: Totals, milliseconds: Double) -> String {
        """
        # tests \(totals.tests)
        # pass \(totals.passed)
        # fail \(totals.failures)
        # skipped \(totals.skipped)
        # todo \(totals.todo)
        # files \(totals.files)
        # files failed \(totals.failedFiles)
        # duration_ms \((milliseconds * 10).rounded() / 10)

        """
    }

    /// The line on stderr: tests, then files, each counted for what it is.
    static func summaryLine(_ totals: Totals) -> String {
        let plural = { (count: Int, word: String) in "\(count) \(word)\(count == 1 ? "" : "s")" }
        return "js: \(plural(totals.tests, "test")): \(totals.passed) passed, \(totals.failures) failed, \(totals.skipped) skipped, \(totals.todo) todo; "
            + "\(plural(totals.files, "file")): \(totals.files - totals.failedFiles) passed, \(totals.failedFiles) failed\n"
    }

    struct FileResult {
        var passed = 0, failed = 0, skipped = 0, todo = 0
        var matched: Int?
        var problem: String?
        var modules: [String] = []
    }

    /// What a run printed, gathered from the thread it runs on.
    final class Captured: Sendable {
        let text = Mutex("")
    }

    /// A value handed between the JS thread and the thread that runs the file.
    final class Box<T: Sendable>: Sendable {
        private let state: Locked<T>
        init(_ value: T) { state = Locked(value) }

        var value: T {
            get { state.value }
            set { state.value = newValue }
        }
    }

    func runFile(_ file: String, deadline: UInt64? = nil) -> FileResult {
        let dataDirectory = Self.makeTemporaryDirectory()
        defer { Self.removeTree(dataDirectory) }
        let grants = Self.grantsLine(in: file) ?? grantFlags
        var options = AppRunOptions(dataDirectory: dataDirectory, grantFlags: grants, timeLimitSeconds: timeLimitSeconds,
                                    validatesResults: true)
        // The harness's TAP lines (and the tests' console output) go where the runner's own do,
        // so that runCapturing holds the whole stream.
        let write = self.write
        options.output = { fd, text in
            if fd == 1 { write(text) } else { StandardStreams.write(text, to: fd) }
        }
        options.arguments = arguments
        options.guardsMemory = guardsMemory
        if let inspector {
            let name = TestInspector.targetName(file: file)
            inspector.hub.expectTarget(named: name)
            options.inspectorTarget = (inspector, name)
        }
        // After the session's shutdown: the context has ended.
        defer { inspector?.hub.endTarget() }
        let session: AppSession
        do {
            session = try AppSession(path: file, options: options)
        } catch {
            return FileResult(problem: error.message)
        }
        defer { session.shutdown() }
        let counts = Box<JSONValue?>(nil)
        let leftover = Box(false)
        let main = session.manifest.mainPath
        let engine = session.engine
        let filter = self.filter
        let grace = leftoverGraceSeconds
        let allowOpen = Self.allowsOpenWork(in: file)
        let inspected = inspector != nil
        let waits = inspector.map { !$0.hub.released } ?? false
        if let hub = inspector?.hub, waits {
            // The harness first: the debugger's pause at the first statement lands in the file's
            // own code (the module loader's run into it), not in the harness's last line.
            engine.post { context in
                do throws(ScriptError) { try Self.installHarness(context: context) } catch { engine.fail(error) }
            }
            engine.waitForDebugger { hub.released }
        }
        engine.post { context in
            do throws(ScriptError) {
                try Self.start(context: context, main: main, filter: filter, allowOpen: allowOpen, timeouts: !inspected,
                               harnessInstalled: waits, counts: counts) { failed in
                    // The verdict is in. Work a failed test left behind may never end; a passing
                    // file gets the grace to wind down, then ends too, with a note.
                    if failed {
                        engine.endRun()
                    } else {
                        _ = engine.addNativeTimer(delayMs: grace * 1000) {
                            leftover.value = true
                            engine.endRun()
                        }
                    }
                }
            } catch {
                engine.fail(error)
            }
        }
        // The run's time limit: the file is ended with what it still had running.
        let stillRunning = Box<[String]?>(nil)
        if let deadline {
            let left = Double(deadline > MonotonicClock.now() ? deadline - MonotonicClock.now() : 0) / 1e6
            engine.post { context in
                _ = engine.addNativeTimer(delayMs: left) {
                    let listed = try? context.jsonValue(from: context.evaluate(
                        "globalThis.__hybridTest?.openWork.describeAll() ?? []", url: "hybrid:run-timeout"))
                    stillRunning.value = listed?.arrayValue?.compactMap(\.stringValue) ?? []
                    engine.endRun()
                }
            }
        }
        let outcome = engine.waitUntilIdle()
        if let running = stillRunning.value {
            let limit = (runTimeoutSeconds ?? 0).formatted()
            return FileResult(problem: "the run's time limit (--run-timeout \(limit) s) passed while this file ran; "
                              + (running.isEmpty ? "nothing the harness tracks was running" : "still running: " + running.joined(separator: "; ")))
        }
        if case .failed(let error) = outcome {
            return FileResult(problem: AppSession.report(error, timeLimit: timeLimitSeconds))
        }
        let modules = recordsModules ? session.loadedModules().filter { $0.hasPrefix("/") } : []
        guard let totals = counts.value else {
            if let unsettled = session.unsettledTopLevelAwait() {
                // node's words for it; `hybrid run` prints the same and exits 13.
                return FileResult(problem: "the file's top-level await never settled, so its tests never ran: "
                                  + unsettled.split(separator: "\n").prefix(2).joined(separator: ": ").dropFirst("Warning: ".count))
            }
            return FileResult(problem: "the test run never finished (a test left the event loop with nothing to do)")
        }
        if leftover.value {
            write("# \(Self.tapEscaped(file)): work was still pending \(grace.formatted()) s after its tests passed, none of it a call, subscription, "
                  + "timer or view the harness tracks (a promise chain waiting on one of them, say); it was stopped\n")
        }
        var result = FileResult(modules: modules)
        result.matched = totals["matched"]?.intValue
        result.passed = totals["passed"]?.intValue ?? 0
        result.failed = totals["failed"]?.intValue ?? 0
        result.skipped = totals["skipped"]?.intValue ?? 0
        result.todo = totals["todo"]?.intValue ?? 0
        if result.passed + result.failed + result.skipped + result.todo == 0 {
            result.problem = "no tests: the file registered no test() "
        }
        return result
    }

    /// Installs the harness, loads the test file (which registers tests) and starts the run.
    /// `ended(failed)` runs on the JS thread when the harness has counted every test.
    static func start(context: ScriptContext, main: String, filter: String?, allowOpen: Bool, timeouts: Bool = true,
                      harnessInstalled: Bool = false, counts: Box<JSONValue?>,
                      ended: @escaping (_ failed: Bool) -> Void) throws(ScriptError) {
        if !harnessInstalled { try installHarness(context: context) }
        // A test file that awaits at top level registers tests until its evaluation ends.
        let loaded = try context.runMain(main)
        guard let harness = context.object(context.get(context.global, "__hybridTest")),
              let run = context.object(context.get(harness, "run")) else {
            throw ScriptError(name: "Error", message: "the test harness is not installed")
        }
        var optionsJSON: JSONObject = ["indent": "    "]
        if let filter { optionsJSON["filter"] = .string(filter) }
        if allowOpen { optionsJSON["allowOpen"] = true }
        if !timeouts { optionsJSON["timeouts"] = false }
        let options = context.jsValue(from: .object(optionsJSON))
        if let optionsObject = context.object(options) { context.set(optionsObject, "after", loaded) }
        let promise = try context.call(run, this: harness, [options])
        guard let promiseObject = context.object(promise), let then = context.object(context.get(promiseObject, "then")) else { return }
        let onDone = context.makeFunction { args in
            counts.value = try? args.context.jsonValue(from: args[0])
            ended((counts.value?["failed"]?.intValue ?? 0) > 0)
            return nil
        }
        let onError = context.makeFunction { args in
            let error = args.context.scriptError(from: args[0])
            args.context.engine?.fail(error)
            return nil
        }
        try context.call(then, this: promiseObject, [onDone, onError])
    }

    /// The test API's globals (`js/runtime/test-harness.js`), before the test file loads.
    static func installHarness(context: ScriptContext) throws(ScriptError) {
        guard let native = context.runtimeNative else { return }
        for (name, source) in TestHarnessScript.sources {
            try context.runPrelude(source, url: "hybrid:\(name)", native: native)
        }
    }

    /// Whether a `// @allow-open` line near the top of a test file lets its tests leave work
    /// running (a subscription shared by the tests, say) without failing.
    static func allowsOpenWork(in file: String) -> Bool {
        guard let text = try? FileSystem.text(atPath: file) else { return false }
        return text.split(separator: "\n", maxSplits: 20, omittingEmptySubsequences: false).prefix(20).contains { line in
            line.drop(while: { $0 == " " }).hasPrefix("// @allow-open")
        }
    }

    /// `// @grants device,storage` near the top of a test file restricts its grants.
    static func grantsLine(in file: String) -> [String]? {
        guard let text = try? FileSystem.text(atPath: file) else { return nil }
        for line in text.split(separator: "\n", maxSplits: 20, omittingEmptySubsequences: false).prefix(20) {
            let trimmed = line.drop(while: { $0 == " " })
            guard trimmed.hasPrefix("// @grants") else { continue }
            let list = trimmed.dropFirst("// @grants".count)
            return list.split(separator: ",").map { $0.trimmingCharacters(in: " ") }.filter { !$0.isEmpty }
        }
        return nil
    }

    /// A description as TAP 14 reads it: `\\` and `#` escaped (a bare `#` starts a directive), one line.
    static func tapEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "#": escaped += "\\#"
            case "\n", "\r": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func yamlQuoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences("\\", "\\\\").replacingOccurrences("\"", "\\\"").replacingOccurrences("\n", "\\n") + "\""
    }

    static func makeTemporaryDirectory() -> String {
        FileSystem.makeTemporaryFolder(prefix: "hybrid-test") ?? (ProcessEnvironment["TMPDIR"] ?? "/tmp")
    }

    /// `rm -rf` for the temporary folders this runner made.
    static func removeTree(_ path: String) {
        guard path.contains("/hybrid-test-") else { return }
        FileSystem.removeTree(path)
    }
}

enum TestFileSearch {
    static let testSuffixes = [".test.js", ".test.ts", ".test.mjs", ".test.mts", ".test.cjs", ".test.cts"]

    static func find(in directory: String) -> [String] {
        var found: [String] = []
        for name in FileSystem.entries(of: directory) where !name.hasPrefix(".") && name != "node_modules" {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            switch FileSystem.kind(of: path) {
            case .directory: found += find(in: path)
            case .file where testSuffixes.contains(where: name.hasSuffix): found.append(path)
            default: break
            }
        }
        return found
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        String(drop(while: { $0 == set }).reversed().drop(while: { $0 == set }).reversed())
    }

    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
