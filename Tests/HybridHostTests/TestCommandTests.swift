import Foundation
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
