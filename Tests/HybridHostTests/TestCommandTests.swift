import Engine
import Foundation
import HostTesting
@testable import HybridHost
import JSON
import Synchronization
import Testing

@Suite("hybrid test and hybrid contracts")
struct TestCommandTests {
    @Test("a folder whose tests all pass prints TAP 14 and exits 0")
    func passing() async throws {
        let result = try await HybridProcess.run(["test", HybridProcess.fixture("suites/passing")])
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "TAP version 14", "\(result)")
        #expect(lines.contains("# Subtest: \(HybridProcess.fixture("suites/passing/device.test.js"))"), "\(result)")
        #expect(lines.contains("    ok 1 - device info says linux"), "\(result)")
        #expect(lines.contains("    ok 1 - adds numbers"), "\(result)")
        #expect(lines.contains("    ok 2 - bridge > echo answers"), "\(result)")
        #expect(lines.contains("1..2"), "\(result)")
        #expect(!result.standardOutput.contains("not ok"), "\(result)")
    }

    @Test("stdout is strict TAP 14 (tap-parser in strict mode accepts it); the summary is on stderr")
    func strictTAP() async throws {
        for suite in ["suites/passing", "suites/typescript #1"] {
            let result = try await HybridProcess.run(["test", HybridProcess.fixture(suite)])
            #expect(result.status == 0, "\(result)")
            let count = suite.hasSuffix("passing") ? 3 : 2
            #expect(result.standardError.hasSuffix("js: \(count) tests: \(count) passed, 0 failed, 0 skipped, 0 todo; 2 files: 2 passed, 0 failed\n"), "\(result)")
            #expect(result.standardOutput.contains("\n1..2\n# tests \(count)\n# pass \(count)\n# fail 0\n"), "\(result)")
            let verdict = try await Self.strictTAPVerdict(result.standardOutput)
            #expect(verdict == "ok", "\(verdict)\n\(result)")
        }
    }

    @Test("TypeScript and ES module test files are found and run; names with # are escaped")
    func typeScriptTests() async throws {
        let folder = HybridProcess.fixture("suites/typescript #1")
        let result = try await HybridProcess.run(["test", folder])
        #expect(result.status == 0, "\(result)")
        let escaped = folder.replacingOccurrences(of: "#", with: "\\#")
        #expect(result.standardOutput.contains("# Subtest: \(escaped)/cart.test.ts\n    ok 1 - cart \\# totals > sums lines\n    1..1\n"), "\(result)")
        #expect(result.standardOutput.contains("ok 2 - \(escaped)/module.test.mjs\n"), "\(result)")
    }

    /// "ok", or what a strict TAP 14 consumer (node's tap-parser, Debian's node-tap-parser)
    /// found wrong with `tap`.
    static func strictTAPVerdict(_ tap: String) async throws -> String {
        let script = """
            const Parser = require("tap-parser");
            const parser = new Parser({ strict: true }, (result) => {
              const problems = result.failures.map((f) => f.tapError || f.name);
              console.log(result.ok && problems.length === 0 ? "ok" : JSON.stringify(problems));
            });
            process.stdin.pipe(parser);
            """
        let result = try await HybridProcess.tool(["node", "-e", script], input: tap, environment: ["NODE_PATH": "/usr/share/nodejs"])
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("one failing test makes the run exit 1, with a not ok line and a diagnostic")
    func failing() async throws {
        let result = try await HybridProcess.run(["test", HybridProcess.fixture("suites/failing")])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("    ok 1 - passes"), "\(result)")
        #expect(result.standardOutput.contains("    not ok 2 - fails on purpose"), "\(result)")
        #expect(result.standardOutput.contains("mixed.test.js:6:"), "\(result)")
        #expect(result.standardOutput.contains("not ok 1 - \(HybridProcess.fixture("suites/failing/mixed.test.js"))"), "\(result)")
    }

    @Test("the summary counts tests as node's runner does, a file that cannot load as one failed test, and files beside them")
    func summary() async throws {
        let result = try await HybridProcess.run(["test", HybridProcess.fixture("suites/passing"), HybridProcess.fixture("suites/failing"),
                                                  HybridProcess.fixture("suites/broken")])
        #expect(result.status == 1, "\(result)")
        // passing: 3 tests in 2 files; failing: 1 passed, 1 failed; broken: one file that cannot load.
        let tail = result.standardOutput.split(separator: "\n").map(String.init).suffix(9)
        #expect(Array(tail.prefix(8)) == ["1..4", "# tests 6", "# pass 4", "# fail 2", "# skipped 0", "# todo 0", "# files 4", "# files failed 2"], "\(result)")
        #expect(tail.last?.hasPrefix("# duration_ms ") == true, "\(result)")
        #expect(result.standardError.hasSuffix("js: 6 tests: 4 passed, 2 failed, 0 skipped, 0 todo; 4 files: 2 passed, 2 failed\n"), "\(result)")
        let verdict = try await Self.strictTAPVerdict(result.standardOutput)
        // The failures are reported as TAP failures, not as TAP that does not parse.
        #expect(!verdict.contains("tapError") && verdict != "ok", "\(verdict)")
    }

    @Test("a --filter that matches no test fails the run, naming the filter, instead of passing with nothing tested")
    func filterMatchingNothing() async throws {
        let result = try await HybridProcess.run(["test", HybridProcess.fixture("suites/passing"), "--filter", "no such test"])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("# tests 3\n# pass 0\n# fail 0\n# skipped 3\n"), "\(result)")
        #expect(result.standardError.contains("hybrid test: --filter \"no such test\" matched no test in 2 files"), "\(result)")
        // One that matches a test runs it, and passes.
        let skipped = try await HybridProcess.run(["test", HybridProcess.fixture("suites/passing"), "--filter", "adds numbers"])
        #expect(skipped.status == 0, "\(skipped)")
    }

    @Test("--filter runs only the tests whose name matches, so a run can pass despite a failing test elsewhere")
    func filter() async throws {
        let result = try await HybridProcess.run(["test", HybridProcess.fixture("suites/failing"), "--filter", "passes"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("    ok 1 - passes"), "\(result)")
        #expect(result.standardOutput.contains("    ok 2 - fails on purpose # SKIP"), "\(result)")
    }

    @Test("a failing test in a file compiled from TypeScript reports the .ts file, line and column in at: and the stack",
          .enabled(if: Esbuild.path != nil, "esbuild is not installed (scripts/install-deps)"))
    func failureInTypeScript() async throws {
        let script = try TranspiledScript("""
            declare function test(name: string, fn: () => void): void;
            declare function expect(value: unknown): { toBe(expected: unknown): void };

            interface Line { price: number; quantity: number }

            function total(lines: Line[]): number {
              let sum = 0;
              for (const line of lines) {
                if (line.quantity < 0) throw new RangeError("negative quantity");
                sum += line.price * line.quantity;
              }
              return sum;
            }

            test("adds", () => { expect(total([{ price: 2, quantity: 3 }])).toBe(6); });
            test("refuses negative quantities", () => { total([{ price: 2, quantity: -1 }]); });
            test("checks the sum", () => {
              expect(total([{ price: 2, quantity: 2 }])).toBe(5);
            });

            """, name: "cart.test.ts")
        defer { script.remove() }
        let printed = Mutex("")
        let session = try script.session(output: { fd, text in if fd == 1 { printed.withLock { $0 += text } } })
        defer { session.shutdown() }
        let counts = TestRunner.Box<JSONValue?>(nil)
        let main = session.manifest.mainPath
        let engine = session.engine
        engine.post { context in
            do throws(ScriptError) {
                try TestRunner.start(context: context, main: main, filter: nil, allowOpen: false, counts: counts) { _ in }
            } catch {
                engine.fail(error)
            }
        }
        #expect(await engine.idle() == .idle)
        let tap = printed.withLock { $0 }
        let thrown = try #require(script.location(of: "RangeError"))
        #expect(tap.contains("    ok 1 - adds\n"), "\(tap)")
        #expect(tap.contains("    not ok 2 - refuses negative quantities\n"), "\(tap)")
        #expect(tap.contains("      at: \(thrown)\n"), "\(tap)")
        #expect(tap.contains("        at total (\(thrown))\n"), "\(tap)")
        #expect(tap.contains("        at \(try #require(script.location(of: "total([{ price: 2, quantity: -1")))\n"), "\(tap)")
        #expect(tap.contains("    not ok 3 - checks the sum\n"), "\(tap)")
        #expect(tap.contains("      at: \(try #require(script.location(of: "toBe(5)")))\n"), "\(tap)")
        #expect(!tap.contains("/out/cart.test.js"), "\(tap)")
    }

    @Test("a test file that cannot load fails the run with its error")
    func brokenFile() async throws {
        let result = try await HybridProcess.run(["test", HybridProcess.fixture("suites/broken")])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("not ok 1 - "), "\(result)")
        #expect(result.standardOutput.contains("SyntaxError"), "\(result)")
    }

    @Test("a test file whose top-level await never settles fails, saying where it waits")
    func unsettledTopLevelAwait() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-test")
        defer { folder.remove() }
        let file = try folder.write("stalled.test.mjs", "test(\"never runs\", () => {});\nconst config = await new Promise(() => {});\n")
        let result = try await HybridProcess.run(["test", file], timeLimit: .seconds(120))
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("not ok 1 - \(file)\n  ---\n  message: \"the file's top-level await never settled, so its tests never ran: "
                                               + "Detected unsettled top-level await at file://\(file):2: const config = await new Promise(() => {});\"\n"), "\(result)")
    }

    /// Runs `source` as a test file of its own through the in-process runner.
    static func runTestFile(_ source: String, grace: Double, runTimeout: Double? = nil) async throws -> (totals: TestRunner.Totals, tap: String, seconds: Double) {
        let folder = NSTemporaryDirectory() + "leftover-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/leftover.test.js"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        var runner = TestRunner()
        runner.leftoverGraceSeconds = grace
        runner.runTimeoutSeconds = runTimeout
        // This process's resident memory is every test's: a loaded full run passed the 1 GiB quota.
        runner.guardsMemory = false
        let started = ContinuousClock.now
        let (totals, tap) = await runner.runCapturing(files: [file])
        let elapsed = ContinuousClock.now - started
        return (totals, tap, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    @Test("a test that times out with its subscription and timers still running fails the file, which ends instead of waiting for them")
    func timedOutTestEnds() async throws {
        let (totals, tap, seconds) = try await Self.runTestFile("""
            test("never arrives", async () => {
              setInterval(() => {}, 50);
              const schema = { version: 1, tables: { notes: { columns: { id: "TEXT NOT NULL" }, primaryKey: "id" } } };
              await Hybrid.call("storage", "open", { database: "left", schema });
              Hybrid.subscribe("storage", "watch", { database: "left", timeoutMs: 3600000 }, () => {});
              await new Promise(() => {});
            }, 300);
            """, grace: 600)
        #expect(totals.failed == 1 && totals.passed == 0 && totals.brokenFiles == 0, "\(tap)")
        #expect(tap.contains("not ok 1 - "), "\(tap)")
        #expect(seconds < 300, "the run waited out the grace after a failed test")
    }

    static let notesSchema = #"{ version: 1, tables: { notes: { columns: { id: "TEXT NOT NULL" }, primaryKey: "id" } } }"#

    @Test("a test that leaves a timer, a subscription, a call or a view running fails, naming each with the line that started it; the file goes on")
    func leftoverWorkFails() async throws {
        let (totals, tap, seconds) = try await Self.runTestFile("""
            // @grants storage,view
            test("leaves three", async () => {
              await Hybrid.call("storage", "open", { database: "left", schema: \(Self.notesSchema) });
              setInterval(() => {}, 50);
              Hybrid.subscribe("storage", "watch", { database: "left", timeoutMs: 3600000 }, () => {});
              Hybrid.call("storage", "watch", { database: "left", timeoutMs: 3600000 });
            }, 600000);
            test("leaves a view mounted", async () => { await Hybrid.view.mount({ type: "text", text: "hi" }); }, 600000);
            test("ends what it starts", async () => {
              const subscription = Hybrid.subscribe("storage", "watch", { database: "left", timeoutMs: 3600000 }, () => {});
              clearTimeout(setTimeout(() => {}, 1000));
              await new Promise((resolve) => setTimeout(resolve, 5));
              subscription.stop();
              await Hybrid.view.mount({ type: "text", text: "hi" });
              await Hybrid.call("view", "unmount", {});
            }, 600000);
            """, grace: 600)
        #expect(totals.failed == 2 && totals.passed == 1 && totals.brokenFiles == 0, "\(tap)")
        #expect(tap.contains("not ok 1 - leaves three"), "\(tap)")
        #expect(tap.contains("the test left these 3 running: a timer (setInterval of 50 ms) started at "), "\(tap)")
        for expected in ["leftover.test.js:4:14;", "a subscription (storage.watch) started at ", "leftover.test.js:5:19;",
                         "a call in flight (storage.watch) started at ", "leftover.test.js:6:14. Stop it"] {
            #expect(tap.contains(expected), "\(expected) in \(tap)")
        }
        #expect(tap.contains("not ok 2 - leaves a view mounted"), "\(tap)")
        #expect(tap.contains("the test left this running: an open view (view.mount) started at "), "\(tap)")
        #expect(tap.contains("ok 3 - ends what it starts"), "\(tap)")
        #expect(seconds < 300, "the run waited out the grace")
    }

    @Test("allowOpen and // @allow-open keep work on purpose, ended with the file; what the file leaves outside its tests fails it")
    func allowedOpenWork() async throws {
        let allowed = try await Self.runTestFile("""
            test("keeps a timer", () => { setInterval(() => {}, 50); }, { allowOpen: true, timeout: 1000 });
            test("keeps another", () => { setTimeout(() => {}, 3600000); }, 2000);
            """, grace: 600)
        #expect(allowed.totals.passed == 1 && allowed.totals.failed == 1, "\(allowed.tap)")
        #expect(allowed.tap.contains("ok 1 - keeps a timer") && allowed.tap.contains("not ok 2 - keeps another"), "\(allowed.tap)")
        #expect(allowed.seconds < 300, "the run waited for the allowed timer")

        let fileWide = try await Self.runTestFile("""
            // @allow-open: the tests share one interval
            test("keeps a timer", () => { setInterval(() => {}, 50); });
            """, grace: 600)
        #expect(fileWide.totals.passed == 1 && fileWide.totals.failed == 0, "\(fileWide.tap)")

        let topLevel = try await Self.runTestFile("""
            const ticker = setInterval(() => {}, 50);
            test("passes", () => {});
            """, grace: 600)
        #expect(topLevel.totals.passed == 1 && topLevel.totals.failed == 1, "\(topLevel.tap)")
        #expect(topLevel.tap.contains("not ok 2 - (the file, after its tests)"), "\(topLevel.tap)")
        #expect(topLevel.tap.contains("the file left this running: a timer (setInterval of 50 ms) started at "), "\(topLevel.tap)")
    }

    @Test("--run-timeout ends the run when it passes, failing the file with the test it was in and what it had running")
    func runTimeout() async throws {
        let (totals, tap, seconds) = try await Self.runTestFile("""
            test("waits forever", async () => {
              setInterval(() => {}, 1000);
              await new Promise(() => {});
            }, 600000);
            """, grace: 600, runTimeout: 1)
        #expect(totals.brokenFiles == 1 && totals.passed == 0, "\(tap)")
        #expect(tap.contains("the run's time limit (--run-timeout 1 s) passed while this file ran; still running: in the test \\\"waits forever\\\"; "
                             + "a timer (setInterval of 1000 ms) started at "), "\(tap)")
        #expect(tap.contains("leftover.test.js:2:14"), "\(tap)")
        #expect(seconds < 300)
    }

    @Test("work the harness does not track, still pending after a passing file, ends after the grace with a note; tidy work gets none")
    func untrackedWorkAfterPassing() async throws {
        // A timer made out of the harness's sight stands for what it cannot see.
        let left = try await Self.runTestFile("""
            test("passes", () => { __hybridTest.openWork.quietly(() => setInterval(() => {}, 50)); });
            """, grace: 0.3)
        #expect(left.totals.passed == 1 && left.totals.failed == 0 && left.totals.brokenFiles == 0, "\(left.tap)")
        #expect(left.tap.contains("work was still pending 0.3 s after its tests passed, none of it a call, subscription, timer or view the harness tracks"),
                "\(left.tap)")

        let tidy = try await Self.runTestFile("""
            let fired = false;
            test("passes", async () => { setTimeout(() => { fired = true; }, 100); await new Promise((resolve) => setTimeout(resolve, 150)); });
            """, grace: 600)
        #expect(tidy.totals.passed == 1 && tidy.totals.brokenFiles == 0, "\(tidy.tap)")
        #expect(!tidy.tap.contains("still pending"), "\(tidy.tap)")
        #expect(tidy.seconds < 300, "the run waited for the grace instead of its timer")
    }

    @Test("hybrid contracts check passes on the repository's contracts")
    func contractsCheck() async throws {
        let result = try await HybridProcess.run(["contracts", "check"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("contracts ok"), "\(result)")
    }
}
