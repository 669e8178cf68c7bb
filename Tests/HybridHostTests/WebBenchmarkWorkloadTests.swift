import Foundation
import Testing

/// The workload files of `hybrid-bench web` (Benchmarks/web/) keep the contract it reads: each runs
/// under `hybrid run` and, but for localStorage's, under node, and prints one JSON line with its
/// name, ops > 0 and seconds > 0. A short time each: this checks that they run, not how fast.
@Suite("hybrid-bench web workloads")
struct WebBenchmarkWorkloadTests {
    struct Workload: CustomTestStringConvertible, Sendable {
        let file: String
        let name: String
        var node = true
        var testDescription: String { "\(file) \(name)" }
        /// A twentieth of a second; url.js runs its one workload and takes only the seconds.
        var arguments: [String] { file == "url.js" ? ["0.05"] : [name, "0.05"] }
    }

    static let workloads: [Workload] = [Workload(file: "url.js", name: "url")]
        + ["encode-ascii-1k", "encode-cjk-1k", "encode-mixed-1m", "decode-ascii-1k", "decode-cjk-1k", "decode-mixed-1m", "decode-gb18030-1m"]
            .map { Workload(file: "encoding.js", name: $0) }
        + ["clone-json-1m", "clone-arraybuffer-10m"].map { Workload(file: "structured-clone.js", name: $0) }
        + ["getItem", "setItem", "session-setItem"].map { Workload(file: "storage.js", name: $0, node: false) }

    @Test("prints {name, ops, seconds} under hybrid run and node", arguments: workloads)
    func printsItsResultLine(workload: Workload) async throws {
        let path = HybridProcess.repository.appendingPathComponent("Benchmarks/web/" + workload.file).path
        var arguments = workload.arguments
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        if workload.name == "decode-gb18030-1m" {
            // hybrid-bench web writes the same input with python3 (node cannot encode gb18030).
            let fixture = folder.appendingPathComponent("gb18030.json").path
            let script = "import base64, json, sys; json.dump({'base64': base64.b64encode(('中文编码 abc 😀 ' * 50000).encode('gb18030')).decode()}, open(sys.argv[1], 'w'))"
            let python = try await HybridProcess.tool(["python3", "-c", script, fixture], mergingErrors: true)
            try #require(python.status == 0, "python3 could not write the gb18030 input: \(python.output)")
            arguments.append(fixture)
        }
        let ours = try await HybridProcess.run(["run", path, "--data-dir", folder.appendingPathComponent("data").path, "--"] + arguments,
                                               timeLimit: .seconds(120))
        try #require(ours.status == 0, "\(ours)")
        try expectResultLine(ours.standardOutput, workload)
        if workload.node {
            let node = try await HybridProcess.tool(["node", path] + arguments, mergingErrors: true)
            try #require(node.status == 0, "node: \(node.output)")
            try expectResultLine(node.output, workload)
        }
    }

    func expectResultLine(_ output: String, _ workload: Workload, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") }, "no JSON line in: \(output)", sourceLocation: sourceLocation)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], sourceLocation: sourceLocation)
        #expect(result["name"] as? String == workload.name, "\(line)", sourceLocation: sourceLocation)
        #expect((result["ops"] as? Double ?? 0) > 0, "\(line)", sourceLocation: sourceLocation)
        #expect((result["seconds"] as? Double ?? 0) > 0, "\(line)", sourceLocation: sourceLocation)
    }
}
