import Foundation
import HostTesting
import Testing

/// setTimeout and setInterval return node's Timeout (issue 34, item 8): the same file under
/// `node` and under `hybrid run` prints the same, and node-style TypeScript type-checks against
/// the declarations `hybrid init --typescript` writes.
@Suite("timers as node has them")
struct NodeTimerTests {
    @Test("ref, unref, hasRef, refresh, close and the numeric id behave as node's, and unref'd timers alone let the app end")
    func sameAsNode() async throws {
        let script = HybridProcess.fixture("scripts/node-timers.js")
        let node = try await HybridProcess.tool(["node", script], mergingErrors: true)
        #expect(node.status == 0, "node: \(node.output)")
        #expect(node.output.hasSuffix("last line: unref'd timers alone let the app end\n"), "node: \(node.output)")
        // The unref'd timers would print "wrong: ..." (and an interval never end) if they kept the app alive.
        let hybrid = try await HybridProcess.run(["run", script], timeLimit: .seconds(60))
        #expect(hybrid.status == 0, "\(hybrid)")
        #expect(hybrid.standardError.isEmpty, "\(hybrid)")
        #expect(hybrid.standardOutput == node.output)
    }

    /// The loop looked for due timers before asking whether anything kept it alive: an unref'd
    /// timer due by the end of the script's turn ran once.
    @Test("unref'd timers due before the script's turn ends do not run when nothing else keeps the app alive, as in node")
    func unrefDueAtTheEnd() async throws {
        let script = HybridProcess.fixture("scripts/node-timers-unref.js")
        let node = try await HybridProcess.tool(["node", script], mergingErrors: true)
        #expect(node.output == "last line of the script\nmicrotasks still run\n", "node: \(node.output)")
        let hybrid = try await HybridProcess.run(["run", script], timeLimit: .seconds(60))
        #expect(hybrid.status == 0, "\(hybrid)")
        #expect(hybrid.standardOutput == node.output, "\(hybrid)")
    }

    @Test("node-style timer code in TypeScript type-checks with tsc and runs",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tsc") && Esbuild.path != nil, "needs tsc and esbuild"))
    func typeScript() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-timers")
        defer { folder.remove() }
        let app = folder.path + "/timers"
        let made = try await HybridProcess.run(["init", app, "--typescript"])
        try #require(made.status == 0, "\(made)")
        try folder.write("timers/timers.ts", """
            const poll: NodeJS.Timeout = setInterval((label: string) => console.log(label), 1000, "tick").unref();
            const idle: NodeJS.Timeout = setTimeout(() => console.log("idle ran"), 1000);  // after the two 1 ms waits, even on a loaded machine
            const handle: ReturnType<typeof setTimeout> = setTimeout(() => {}, 1);
            handle.unref().ref().close();
            const id: number = +idle;
            const keeps: boolean = idle.refresh().hasRef();
            await new Promise<void>((resolve) => setTimeout(resolve, 1));
            await new Promise((resolve) => setTimeout(resolve, 1));
            clearInterval(poll);
            clearTimeout(undefined);
            console.log(typeof id, keeps, `${idle}` === String(id));
            export {};

            """)
        let checked = try await HybridProcess.tool(["tsc", "-p", app], mergingErrors: true)
        #expect(checked.status == 0, "tsc -p: \(checked.output)")
        let ran = try await HybridProcess.run(["run", app + "/timers.ts"], timeLimit: .seconds(60))
        #expect(ran.status == 0, "\(ran)")
        #expect(ran.standardOutput == "number true true\nidle ran\n", "\(ran)")
    }
}
