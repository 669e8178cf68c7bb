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
            #expect(result.standardError.hasSuffix("js: \(suite.hasSuffix("passing") ? 3 : 2) passed, 0 failed\n"), "\(result)")
            let verdict = try Self.strictTAPVerdict(result.standardOutput)
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
    static func strictTAPVerdict(_ tap: String) throws -> String {
        let script = """
            const Parser = require("tap-parser");
            const parser = new Parser({ strict: true }, (result) => {
              const problems = result.failures.map((f) => f.tapError || f.name);
              console.log(result.ok && problems.length === 0 ? "ok" : JSON.stringify(problems));
            });
            process.stdin.pipe(parser);
            """
        let result = try HybridProcess.tool(["node", "-e", script], input: tap, environment: ["NODE_PATH": "/usr/share/nodejs"])
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
                try TestRunner.start(context: context, main: main, filter: nil, counts: counts)
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

    @Test("hybrid contracts check passes on the repository's contracts")
    func contractsCheck() async throws {
        let result = try await HybridProcess.run(["contracts", "check"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("contracts ok"), "\(result)")
    }
}
