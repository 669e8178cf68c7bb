import Foundation
import HostTesting
import JSON
import Patches
import SystemIO
import Testing

/// The report queue across a killed `hybrid run`: what one run queued (and could not send) is
/// sent by the next run over the same data dir, once each.
@Suite("patch reports across a killed hybrid run")
struct PatchReportRestartTests {
    @Test("reports queued by a run killed with SIGKILL are sent by the next run, once each")
    func killedRun() async throws {
        let binary = PatchCommandTests.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build hybrid first: \(binary)")
        let stub = PatchServerStub()
        try await stub.start()
        // Run 1's token is refused: its reports stay queued.
        stub.accept(token: "second-run")
        let patches = #"{"server": "\#(stub.base)", "checkEvery": 3600}"#
        // main keeps the run alive and configures the token the run is given in the data dir.
        let main = """
            const token = require('./token.json').token;
            Hybrid.call('patch', 'configure', {token});
            setInterval(() => {}, 1000);
            """
        let fixture = try PatchFixture(files: ["main.js": main, "token.json": #"{"token": "first-run"}"#, "greet.js": "exports.hello = () => 'v0';\n"],
                                       grants: ["patch", "network:127.0.0.1"], patches: patches)
        defer { fixture.remove() }
        stub.offer(try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'v1';\n")]))
        let environment = ["XDG_STATE_HOME": fixture.root + "/state"]
        let reports = fixture.dataDirectory + "/" + PatchReportQueue.fileName

        let first = try SpawnedProcess(binary, ["run", fixture.appDirectory, "--data-dir", fixture.dataDirectory], environment: environment,
                                       output: .null, error: .null)
        try await poll("run 1 queued its applied report", timeout: 60) {
            ((try? String(contentsOfFile: reports, encoding: .utf8)) ?? "").contains("\"applied\"")
        }
        first.signal(SIGKILL)
        _ = await first.exit()
        #expect(stub.reports.isEmpty)

        stub.offer(nil)
        try #"{"token": "second-run"}"#.write(toFile: fixture.appDirectory + "/token.json", atomically: true, encoding: .utf8)
        let second = try SpawnedProcess(binary, ["run", fixture.appDirectory, "--data-dir", fixture.dataDirectory], environment: environment,
                                        output: .null, error: .null)
        defer { second.signal(SIGKILL) }
        // Patch 1 was never confirmed: run 2 rolls it back at start, and reports that too.
        try await poll("run 2 sent the three reports", timeout: 60) { stub.reports.count >= 3 }
        #expect(stub.reports.map(\.event) == ["downloaded", "applied", "rolledBack"])
        #expect(stub.reports.allSatisfy { $0.patchVersion == 1 && $0.token == "second-run" })
        try await poll("the queue drained", timeout: 60) {
            ((try? String(contentsOfFile: reports, encoding: .utf8)) ?? "").contains("\"pending\":[]")
        }
        #expect(stub.reports.count == 3)
        second.signal(SIGKILL)
        _ = await second.exit()
        await stub.stop()
    }
}
