import Foundation
import HostTesting
import Testing

/// CompressionStream and DecompressionStream over zlib (issue 29, item 1), as a user runs them:
/// the same script under `hybrid run` and under node 20, stdout compared byte for byte, and a
/// 100 MB stream held to a memory quota far below its size. js/tests/web-compression.test.js
/// covers the standard's cases one by one (the web-platform-tests' compression/ is not in node's
/// vendored subset).
@Suite("CompressionStream and DecompressionStream beside node")
struct WebCompressionTests {
    @Test("the fixture prints what node prints: zlib's bytes where both zlibs agree, round trips, node's own gzip, deflate and raw data decompressed, the errors")
    func sameAsNode() async throws {
        let script = HybridProcess.fixture("scripts/web-compression.js")
        let node = try await HybridProcess.tool(["node", script], mergingErrors: true)
        #expect(node.status == 0, "node: \(node.output)")
        #expect(node.output.contains("gzip node's bytes 3500 true true"), "node: \(node.output)")
        let ours = try await HybridProcess.run(["run", script], timeLimit: .seconds(300))
        #expect(ours.status == 0, "\(ours)")
        let expected = node.output.split(separator: "\n", omittingEmptySubsequences: false)
        let actual = ours.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(actual.count == expected.count, "\(actual.count) lines from hybrid, \(expected.count) from node")
        for (index, (mine, theirs)) in zip(actual, expected).enumerated() where mine != theirs {
            Issue.record("line \(index + 1)\n  hybrid: \(mine)\n  node:   \(theirs)")
        }
    }

    @Test("100 MB gzipped and gunzipped through a pipe, 64 KB at a time, stays within a 96 MiB memory quota")
    func flatMemory() async throws {
        let folder = TemporaryFolder(prefix: "compression-memory")
        defer { folder.remove() }
        try #"{"name": "compression-memory", "main": "main.js", "grants": [], "quotas": {"memoryBytes": 100663296}}"#
            .write(toFile: folder.path + "/app.json", atomically: true, encoding: .utf8)
        try """
            const chunkSize = 64 << 10;
            const chunks = (100 << 20) / chunkSize;
            const chunk = new TextEncoder().encode("order 1234, 2 x widget, shipped to 10 Downing St; ".repeat(chunkSize / 50 + 1)).subarray(0, chunkSize);
            let sent = 0;
            const source = new ReadableStream({
              pull(controller) {
                if (sent++ < chunks) controller.enqueue(chunk.slice());
                else controller.close();
              },
            });
            (async () => {
              let total = 0;
              let compressed = 0;
              const counted = new TransformStream({ transform(piece, controller) { compressed += piece.byteLength; controller.enqueue(piece); } });
              const output = source.pipeThrough(new CompressionStream("gzip")).pipeThrough(counted).pipeThrough(new DecompressionStream("gzip"));
              for await (const piece of output) total += piece.byteLength;
              console.log("round trip", total, "bytes;", compressed < total / 20 ? "compressed" : `compressed to only ${compressed}`);
            })();
            """.write(toFile: folder.path + "/main.js", atomically: true, encoding: .utf8)
        let result = try await HybridProcess.run(["run", folder.path], timeLimit: .seconds(300))
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "round trip 104857600 bytes; compressed\n", "\(result)")
    }
}
