import Foundation
import HostTesting
import Testing

/// `hybrid test --watch`, as a user runs it: a real child on a folder of tests and the module
/// they import from another folder, files written as an editor writes them. Waits are generous
/// (20 s): only the order and content of the lines are checked.
@Suite("hybrid test --watch")
struct TestWatchCommandTests {
    static let cart = "exports.total = (lines) => lines.reduce((sum, l) => sum + l.price * l.quantity, 0);\n"

    final class WatchedTests: Sendable {
        let folder = TemporaryFolder(prefix: "hybrid-test-watch")
        let child: LiveProcess

        init() throws {
            try folder.write("src/cart.js", TestWatchCommandTests.cart)
            try folder.write("tests/cart.test.js", """
                const { total } = require("../src/cart");
                test("totals", () => { expect(total([{ price: 2, quantity: 3 }])).toBe(6); });
                """)
            try folder.write("tests/other.test.js", "test(\"other\", () => { expect(1).toBe(1); });\n")
            try folder.write("src/unused.js", "exports.unused = true;\n")
            child = try LiveProcess(HybridProcess.binary.path, ["test", folder.path + "/tests", "--watch"],
                                    environment: ["NO_COLOR": "1", "HYBRID_CACHE_DIR": folder.path + "/.cache"])
        }

        deinit {
            child.stop()
            folder.remove()
        }

        func file(_ name: String) -> String { folder.path + "/" + name }

        /// Waits until the watch has said it is waiting `runs` times: that many runs have ended.
        func waitForRuns(_ runs: Int) async -> Bool {
            await child.wait { output in output.errorLines.filter { $0.text == "[watch] waiting for changes" }.count >= runs }
        }

        /// The stderr lines of run `run` (from 1): what the watch said and the summary.
        func linesOfRun(_ run: Int) -> [String] {
            let lines = child.output.errorLines.map(\.text)
            let ends = lines.indices.filter { lines[$0] == "[watch] waiting for changes" }
            guard ends.count >= run else { return [] }
            let start = run == 1 ? 0 : ends[run - 2] + 1
            return Array(lines[start..<ends[run - 1]])
        }

        var report: String { "--- stdout\n\(child.output.standardOutput.suffix(3000))--- stderr\n\(child.output.standardError)" }
    }

    @Test("a change reruns the test files it touches: the edited test file, or those whose last run loaded the edited module")
    func rerunsWhatAChangeTouches() async throws {
        let tests = try WatchedTests()
        #expect(await tests.waitForRuns(1), "\(tests.report)")
        #expect(tests.linesOfRun(1) == ["js: 2 tests: 2 passed, 0 failed, 0 skipped, 0 todo; 2 files: 2 passed, 0 failed"], "\(tests.report)")

        // A module outside the test folder, loaded by one test file: that file only, failing now.
        try tests.folder.write("src/cart.js", "exports.total = () => 0;\n")
        #expect(await tests.waitForRuns(2), "\(tests.report)")
        #expect(tests.linesOfRun(2) == [
            "[watch] rerunning 1 file: \(tests.file("tests/cart.test.js")) (cart.js changed)",
            "js: 1 test: 0 passed, 1 failed, 0 skipped, 0 todo; 1 file: 0 passed, 1 failed",
        ], "\(tests.report)")
        #expect(tests.child.output.exitStatus == nil, "a failing rerun ended the watch\n\(tests.report)")

        // The test file itself.
        try tests.folder.write("tests/other.test.js", "test(\"other\", () => {});\ntest(\"another\", () => {});\n")
        #expect(await tests.waitForRuns(3), "\(tests.report)")
        #expect(tests.linesOfRun(3) == [
            "[watch] rerunning 1 file: \(tests.file("tests/other.test.js")) (other.test.js changed)",
            "js: 2 tests: 2 passed, 0 failed, 0 skipped, 0 todo; 1 file: 1 passed, 0 failed",
        ], "\(tests.report)")

        // A module no test loaded and a note change nothing; a new test file runs.
        try tests.folder.write("src/unused.js", "exports.unused = false;\n")
        try tests.folder.write("tests/notes.md", "notes\n")
        try tests.folder.write("tests/new.test.js", "test(\"new\", () => {});\n")
        #expect(await tests.waitForRuns(4), "\(tests.report)")
        #expect(tests.linesOfRun(4).first == "[watch] rerunning 1 file: \(tests.file("tests/new.test.js")) (new.test.js changed)", "\(tests.report)")

        // A module that no longer compiles breaks its test file; once fixed, that file runs again.
        try tests.folder.write("src/cart.js", "exports.total = (;\n")
        #expect(await tests.waitForRuns(5), "\(tests.report)")
        #expect(tests.linesOfRun(5).last == "js: 1 test: 0 passed, 1 failed, 0 skipped, 0 todo; 1 file: 0 passed, 1 failed", "\(tests.report)")
        try tests.folder.write("src/cart.js", TestWatchCommandTests.cart)
        #expect(await tests.waitForRuns(6), "\(tests.report)")
        #expect(tests.linesOfRun(6) == [
            "[watch] rerunning 1 file: \(tests.file("tests/cart.test.js")) (cart.js changed)",
            "js: 1 test: 1 passed, 0 failed, 0 skipped, 0 todo; 1 file: 1 passed, 0 failed",
        ], "\(tests.report)")

        // Each run printed a TAP stream of its own on stdout; nothing ran for unused.js or notes.md.
        let streams = tests.child.output.outputLines.filter { $0.text == "TAP version 14" }.count
        #expect(streams == 6, "\(tests.report)")
        #expect(!tests.child.output.standardError.contains("unused.js") && !tests.child.output.standardError.contains("notes.md"), "\(tests.report)")
    }
}
