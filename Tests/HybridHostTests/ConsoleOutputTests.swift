import Foundation
import HostTesting
import SystemIO
import Testing

/// `console` writes each line as it is logged, as node does to terminals, files and pipes
/// (issue 34, item 2): a real `hybrid run` child, its output read as it comes.
@Suite("console output is written as it happens")
struct ConsoleOutputTests {
    /// "start", a synchronous loop of `seconds`, "end".
    static func busyScript(seconds: Double) -> String {
        """
        console.log("start");
        const until = Date.now() + \(Int(seconds * 1000));
        while (Date.now() < until) {}
        console.log("end");

        """
    }

    @Test("a line logged before a long synchronous loop reaches a pipe before the loop ends")
    func beforeTheLoopEnds() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-console")
        defer { folder.remove() }
        let script = try folder.write("busy.js", Self.busyScript(seconds: 1.5))
        let child = try LiveProcess(HybridProcess.binary.path, ["run", script, "--data-dir", folder.path + "/data"])
        defer { child.stop() }
        #expect(await child.wait { $0.exitStatus != nil && $0.outputLines.count >= 2 }, "\(child.output)")
        let lines = child.output.outputLines
        try #require(lines.map(\.text) == ["start", "end"], "\(child.output)")
        // Timers never run early, so the loop took at least 1.5 s; "start" was read well before its end.
        let gap = Double(lines[1].at - lines[0].at) / 1e9
        #expect(gap >= 0.5, "start arrived only \(gap) s before end")
    }

    @Test("SIGTERM during a synchronous loop still leaves the line logged before it in the output file, also when the parent had blocked it",
          arguments: [false, true])
    func survivesSigterm(parentBlocked: Bool) async throws {
        let folder = TemporaryFolder(prefix: "hybrid-console")
        defer { folder.remove() }
        let script = try folder.write("spin.js", "console.log(\"start\");\nwhile (true) {}\n")
        let outputPath = try folder.write("stdout", "")
        // SpawnedProcess starts the child with no signal blocked, whatever the test process
        // blocks, unless told: then it starts as under a parent that blocked them (a supervisor,
        // a shell's trap), and hybrid must unblock them itself.
        let process = try SpawnedProcess(HybridProcess.binary.path, ["run", script, "--data-dir", folder.path + "/data"],
                                         output: .file(outputPath), error: .null,
                                         blockedSignals: parentBlocked ? [SIGTERM, SIGINT, SIGHUP] : [])
        defer { process.signal(SIGKILL) }
        // The loop never ends: "start" is in the file only if it was written as it was logged.
        var written = ""
        for _ in 0..<400 where written.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            written = try String(contentsOfFile: outputPath, encoding: .utf8)
        }
        #expect(written == "start\n")
        #expect(process.isRunning, "still in its loop")
        process.signal(SIGTERM)
        for _ in 0..<400 where process.isRunning { try await Task.sleep(for: .milliseconds(25)) }
        #expect(!process.isRunning, "SIGTERM ended it")
        if !process.isRunning {
            #expect(process.exitStatus == 128 + SIGTERM)
        }
        #expect(try String(contentsOfFile: outputPath, encoding: .utf8) == "start\n")
    }

    @Test("a view's plain frames come after the console lines logged before them, never ahead")
    func viewFramesInOrder() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-console")
        defer { folder.remove() }
        try folder.write("app/app.json", #"{"name": "ordered", "main": "main.mjs", "grants": ["view"]}"#)
        try folder.write("app/main.mjs", """
            console.log("before the view");
            await Hybrid.view.mount({ type: "text", text: "${greeting}" }, { greeting: "frame one" }, { output: "plain", width: 20 });
            console.log("between frames");
            await Hybrid.view.update({ greeting: "frame two" });
            console.log("after the view");

            """)
        // Through a pipe, as `hybrid run app | less` would read it.
        let child = try LiveProcess(HybridProcess.binary.path, ["run", folder.path + "/app", "--data-dir", folder.path + "/data"])
        defer { child.stop() }
        #expect(await child.wait { $0.exitStatus != nil }, "\(child.output)")
        #expect(child.output.exitStatus == 0, "\(child.output)")
        let lines = child.output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines == ["before the view", "frame one", "between frames", "frame two", "after the view"], "\(child.output)")
    }
}
