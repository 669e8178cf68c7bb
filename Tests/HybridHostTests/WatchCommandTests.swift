import Foundation
import HostTesting
import SystemIO
import Testing

/// `hybrid run --watch`, as a user runs it: a real child on a TypeScript app in a temporary
/// folder, files written as an editor writes them (a temporary file renamed over the old one).
/// Waits are generous (20 s): the lines come, only their order and content are checked.
@Suite("hybrid run --watch")
struct WatchCommandTests {
    /// A module that keeps its own timer and hands its count over; `version` tells the code apart.
    static func counter(_ version: String, accepts: Bool = true) -> String {
        """
        declare const module: any;
        let count: number = module.hot.data.count ?? 0;
        const version: string = "\(version)";
        const timer = setInterval(() => { count += 1; console.log(`${version} count=${count}`); }, 40);
        \(accepts ? "module.hot.accept();" : "")
        module.hot.dispose((data: { count?: number }) => { clearInterval(timer); data.count = count; });
        export const label: string = version;
        """
    }

    static let app: [String: String] = [
        "app.json": #"{"name": "watched", "main": "main.ts", "grants": ["kv"]}"#,
        "main.ts": """
            declare const Hybrid: any;
            import { label } from "./counter";
            import { greeting } from "./plain";
            console.log(`main started ${label} ${greeting()}`);
            // How many times the app has started on this data dir.
            Hybrid.kv.get({ bucket: "watch", key: "starts" }).then(async (entry: { value: number } | null) => {
              const starts = (entry?.value ?? 0) + 1;
              await Hybrid.kv.set({ bucket: "watch", key: "starts", value: starts });
              console.log(`starts=${starts}`);
            });
            """,
        "counter.ts": counter("v1"),
        "plain.ts": "export const greeting = (): string => \"hello\";\n",
        "notes.md": "not a module\n",
    ]

    /// A watched app in a folder of its own, its data dir beside it.
    final class WatchedApp: Sendable {
        let folder = TemporaryFolder(prefix: "hybrid-watch")
        let child: LiveProcess

        init(_ files: [String: String] = WatchCommandTests.app, extra: [String] = []) throws {
            for (name, text) in files { try folder.write("app/" + name, text) }
            let hybrid = HybridProcess.binary.path
            child = try LiveProcess(hybrid, ["run", folder.path + "/app", "--watch", "--data-dir", folder.path + "/data"] + extra,
                                    environment: ["NO_COLOR": "1", "HYBRID_CACHE_DIR": folder.path + "/cache"])
        }

        deinit {
            child.stop()
            folder.remove()
        }

        /// Writes a file of the app as an editor does: elsewhere, then renamed over it.
        func edit(_ name: String, _ text: String) throws { try folder.write("app/" + name, text) }

        func waitForError(_ text: String) async -> Bool { await child.wait { $0.standardError.contains(text) } }

        /// Counts printed by `version`'s code, in order.
        func counts(_ version: String) -> [Int] {
            child.output.outputLines.compactMap { line in
                line.text.hasPrefix(version + " count=") ? Int(line.text.dropFirst(version.count + 7)) : nil
            }
        }

        func waitForCount(_ version: String, atLeast minimum: Int = 1) async -> Bool {
            await child.wait { output in
                output.outputLines.contains { $0.text.hasPrefix(version + " count=") && (Int($0.text.dropFirst(version.count + 7)) ?? 0) >= minimum }
            }
        }

        var report: String { "--- stdout\n\(child.output.standardOutput.suffix(2000))--- stderr\n\(child.output.standardError)" }
    }

    @Test("an edited module that called module.hot.accept() is swapped in place, its state handed over through dispose and data")
    func swapKeepsState() async throws {
        let app = try WatchedApp()
        #expect(await app.waitForCount("v1", atLeast: 3), "\(app.report)")
        try app.edit("counter.ts", Self.counter("v2"))
        #expect(await app.waitForError("[watch] swapped counter.ts ("), "\(app.report)")
        #expect(await app.waitForCount("v2", atLeast: 1), "\(app.report)")
        let before = app.counts("v1")
        let after = app.counts("v2")
        // The count goes on from where v1 left it: the app was not started again.
        #expect(after.first == (before.last ?? 0) + 1, "\(app.report)")
        #expect(app.child.output.outputLines.filter { $0.text.hasPrefix("main started") }.count == 1, "\(app.report)")
        #expect(!app.child.output.standardError.contains("restarted"), "\(app.report)")
        // The watch lines are on stderr only: stdout is the app's.
        #expect(!app.child.output.standardOutput.contains("[watch]"), "\(app.report)")
    }

    @Test("an edited module that did not call module.hot.accept() restarts the app, which starts over on the same data dir")
    func restartWithoutAccept() async throws {
        let app = try WatchedApp()
        #expect(await app.waitForCount("v1", atLeast: 2), "\(app.report)")
        #expect(await app.child.wait { $0.standardOutput.contains("starts=1") }, "\(app.report)")
        try app.edit("plain.ts", "export const greeting = (): string => \"bonjour\";\n")
        #expect(await app.waitForError("[watch] restarted: plain.ts did not call module.hot.accept()"), "\(app.report)")
        #expect(await app.child.wait { $0.standardOutput.contains("main started v1 bonjour") }, "\(app.report)")
        // The new session opened the kv store the old one closed.
        #expect(await app.child.wait { $0.standardOutput.contains("starts=2") }, "\(app.report)")
        // A new app: its counter starts from 1 again.
        #expect(await app.child.wait { output in
            let started = output.outputLines.lastIndex { $0.text.hasPrefix("main started") } ?? output.outputLines.count
            return output.outputLines[started...].contains { $0.text == "v1 count=1" }
        }, "\(app.report)")
        // The main module is never swapped; a file the app has not loaded changes nothing.
        try app.edit("notes.md", "still not a module\n")
        try app.edit("main.ts", Self.app["main.ts"]! + "console.log(\"main edited\");\n")
        #expect(await app.waitForError("[watch] restarted: main.ts changed"), "\(app.report)")
        #expect(await app.child.wait { $0.standardOutput.contains("main edited") }, "\(app.report)")
        #expect(!app.child.output.standardError.contains("notes.md"), "\(app.report)")
    }

    @Test("a module that does not compile is reported and the app runs on; the fix is swapped in with the state kept")
    func syntaxErrorKeepsRunning() async throws {
        let app = try WatchedApp()
        #expect(await app.waitForCount("v1", atLeast: 2), "\(app.report)")
        try app.edit("counter.ts", "declare const module: any;\nmodule.hot.accept();\nlet broken: number = ;\n")
        #expect(await app.waitForError("[watch] swap failed, kept running: SyntaxError"), "\(app.report)")
        #expect(app.child.output.standardError.contains("counter.ts:3:"), "\(app.report)")
        // Still the old code, still counting.
        let failedAt = app.counts("v1").last ?? 0
        #expect(await app.waitForCount("v1", atLeast: failedAt + 3), "\(app.report)")
        try app.edit("counter.ts", Self.counter("v3"))
        #expect(await app.waitForError("[watch] swapped counter.ts"), "\(app.report)")
        #expect(await app.waitForCount("v3", atLeast: 1), "\(app.report)")
        #expect(app.counts("v3").first == (app.counts("v1").last ?? 0) + 1, "\(app.report)")
        #expect(!app.child.output.standardError.contains("restarted"), "\(app.report)")
    }

    @Test("a module that throws while it is swapped in restarts the app and says why")
    func throwingSwapRestarts() async throws {
        let app = try WatchedApp()
        #expect(await app.waitForCount("v1", atLeast: 2), "\(app.report)")
        try app.edit("counter.ts", "declare const module: any;\nmodule.hot.accept();\nthrow new Error(\"counter exploded\");\n")
        #expect(await app.waitForError("[watch] swap failed, restarted: Error: counter exploded (counter.ts:"), "\(app.report)")
        // The restarted app loads the same module, which throws again: it waits for the fix.
        #expect(await app.waitForError("[watch] app failed; waiting for a change to restart it"), "\(app.report)")
    }

    @Test("an app that ends on its own is started again at the next change")
    func endedAppWaits() async throws {
        let app = try WatchedApp(["app.json": #"{"name": "brief", "main": "main.ts"}"#,
                                  "main.ts": "import { word } from \"./word\";\nconsole.log(`said ${word}`);\n",
                                  "word.ts": "export const word: string = \"one\";\n"])
        #expect(await app.waitForError("[watch] app exited; waiting for a change to restart it"), "\(app.report)")
        try app.edit("word.ts", "export const word: string = \"two\";\n")
        #expect(await app.waitForError("[watch] restarted: word.ts changed"), "\(app.report)")
        #expect(await app.child.wait { $0.standardOutput.contains("said two") }, "\(app.report)")
    }

    @Test("--watch refuses a signed app's own data dir, and any data dir holding signed patches")
    func refusesSignedData() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-watch")
        defer { folder.remove() }
        let key = "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE="
        try folder.write("signed/app.json", #"{"name": "signed", "main": "main.js", "patchKeys": ["\#(key)"]}"#)
        try folder.write("signed/main.js", "console.log('ran');\n")
        let refused = try await HybridProcess.run(["run", folder.path + "/signed", "--watch"], timeLimit: .seconds(60))
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.standardError.contains("--watch: app.json lists patchKeys"), "\(refused)")
        #expect(refused.standardError.contains("--data-dir"), "\(refused)")
        #expect(!refused.standardOutput.contains("ran"), "\(refused)")

        // A data dir whose ledger records a patch is refused for any app.
        try folder.write("used/patch-ledger/ledger.json", #"{"current": 1, "highestVersion": 1, "records": [{"patchVersion": 1, "state": "confirmed", "at": "2026-01-01T00:00:00Z", "launched": true, "modules": ["main.js"]}]}"#)
        let used = try await HybridProcess.run(["run", folder.path + "/signed", "--watch", "--data-dir", folder.path + "/used"], timeLimit: .seconds(60))
        #expect(used.status == 2, "\(used)")
        #expect(used.standardError.contains("holds signed patches"), "\(used)")
    }
}
