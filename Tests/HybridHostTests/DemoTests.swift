import Foundation
import Testing

/// `make demo` is scripts/demo over the release build; here over the debug build, so that the main
/// job cannot rot: the app against its own sync server and patch server, the staged rollout, and
/// the automatic halt, read back from what it prints.
@Suite("the demo")
struct DemoTests {
    @Test("scripts/demo runs the app beside both servers: the fix reaches half the devices, then all; the bad patch is rolled back and halted")
    func demo() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-demo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let script = HybridProcess.repository.appendingPathComponent("scripts/demo").path
        let run = try await HybridProcess.tool([script, HybridProcess.binary.path, data], mergingErrors: true)
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func line(_ prefix: String) -> [String] { lines.filter { $0.hasPrefix(prefix) } }
        #expect(line("alice sees").first?.hasSuffix("buy milk and eggs ✓, call mum, book the team room") == true, "\(run.output)")
        #expect(line("check").first == "check             applied: patch 1 swapped into the running app", "\(run.output)")
        #expect(line("confirmed").first?.contains("patch 1 is confirmed") == true)
        #expect(line("second device") == [
            "second device  nothing offered; runs the shipped code",
            "second device     applied patch 1 and confirmed it",
            "second device     patch 2: a module threw while loading: ReferenceError: Can't find variable: columns: rolled back to patch 1",
        ], "\(run.output)")
        #expect(line("this device").last == "this device       nothing offered; runs patch 1")
        #expect(lines.contains { $0.hasPrefix("2      1.0.0  production  100%     halted  2        2           2        0          2") }, "\(run.output)")
        #expect(lines.contains { $0.hasPrefix("patch 2 halted by server: 2 of 2 devices that applied it rolled it back") })
    }
}
