import Foundation
import HostTesting
import Testing

/// The Streams Standard's globals (issue 29, item 1; js/web/streams.js) as an app uses them: the
/// same streaming script under `hybrid run` and under node 20, stdout compared line by line, and
/// 100 MB through a TransformStream held to a memory quota far below its size.
/// js/tests/web-streams.test.js covers the cases one by one, and the web-platform-tests' streams/
/// the standard's own (scripts/wpt streams).
@Suite("ReadableStream, WritableStream and TransformStream beside node")
struct WebStreamsTests {
    @Test("a streaming app prints what node prints: lines through TransformStreams, BYOB reads, tee, from(), an aborted pipe, the order of callbacks, errors")
    func sameAsNode() async throws {
        let script = HybridProcess.fixture("scripts/web-streams.js")
        let node = try await HybridProcess.tool(["node", script], mergingErrors: true)
        #expect(node.status == 0, "node: \(node.output)")
        #expect(node.output.contains(#"warnings: ["disk 91%","disk 97%","(closed)"]"#), "node: \(node.output)")
        let ours = try await HybridProcess.run(["run", script], timeLimit: .seconds(120))
        #expect(ours.status == 0, "\(ours)")
        let expected = node.output.split(separator: "\n", omittingEmptySubsequences: false)
        let actual = ours.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(actual.count == expected.count, "\(actual.count) lines from hybrid, \(expected.count) from node")
        for (index, (mine, theirs)) in zip(actual, expected).enumerated() where mine != theirs {
            Issue.record("line \(index + 1)\n  hybrid: \(mine)\n  node:   \(theirs)")
        }
    }

    @Test("100 MB through a TransformStream into a WritableStream, 64 KB at a time, stays within a 96 MiB memory quota")
    func flatMemory() async throws {
        let folder = TemporaryFolder(prefix: "streams-memory")
        defer { folder.remove() }
        try #"{"name": "streams-memory", "main": "main.js", "grants": [], "quotas": {"memoryBytes": 100663296}}"#
            .write(toFile: folder.path + "/app.json", atomically: true, encoding: .utf8)
        try """
            const chunkSize = 64 << 10;
            const chunks = (100 << 20) / chunkSize;
            let sent = 0;
            const source = new ReadableStream({
              pull(controller) {
                if (sent === chunks) return controller.close();
                controller.enqueue(new Uint8Array(chunkSize).fill(sent++ & 0xff));
              },
            });
            let total = 0;
            let inOrder = true;
            let expected = 0;
            const checked = new TransformStream({
              transform(chunk, controller) {
                if (chunk[0] !== (expected++ & 0xff)) inOrder = false;
                controller.enqueue(chunk);
              },
            });
            source.pipeThrough(checked).pipeTo(new WritableStream({ write(chunk) { total += chunk.byteLength; } }))
              .then(() => console.log("piped", total, "bytes", inOrder ? "in order" : "OUT OF ORDER"));
            """.write(toFile: folder.path + "/main.js", atomically: true, encoding: .utf8)
        let result = try await HybridProcess.run(["run", folder.path], timeLimit: .seconds(300))
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "piped 104857600 bytes in order\n", "\(result)")
    }
}
