import Engine
import Foundation
import HostTesting
import SystemIO
import Testing
@testable import WebPlatform

/// The multipart/form-data body a FormData becomes (issue 29, item 2): what node 20's fetch sends
/// (`new Response(formData)`), byte for byte but the boundary, from hybrid's encoder
/// (`internals.get("encodeMultipart")` in js/web/blob.js, which fetch will use). No program can
/// reach that encoder, so the test runs js/web/blob.js itself, as install.js does, in an engine with
/// the web platform installed. js/tests/web-blob.test.js covers Blob, File and FormData themselves.
@Suite("multipart/form-data as node encodes it")
struct WebBlobTests {
    @Test("every FormData encodes to node's bytes, the boundary aside")
    func sameAsNode() async throws {
        let fixture = HybridProcess.fixture("scripts/web-multipart.js")
        let nodeRunner = """
            eval(require("fs").readFileSync(process.argv[1], "utf8"));
            printCases(async (fd) => {
              const response = new Response(fd);
              return { contentType: response.headers.get("content-type"), bytes: new Uint8Array(await response.arrayBuffer()) };
            });
            """
        let node = try await HybridProcess.tool(["node", "-e", nodeRunner, fixture], mergingErrors: true)
        try #require(node.status == 0, "node: \(node.output)")
        let ours = try await encodeInEngine(String(contentsOfFile: fixture, encoding: .utf8) + """

            printCases(async (fd) => {
              const { contentType, body } = encodeMultipart(fd);
              if (body.type !== contentType) throw new Error("the body's type is not its content type");
              return { contentType, bytes: await body.bytes() };
            });
            """)
        let expected = node.output.split(separator: "\n")
        let actual = ours.split(separator: "\n")
        #expect(actual.count == expected.count && expected.count == 3, "\(actual.count) cases from hybrid, \(expected.count) from node")
        for (index, (mine, theirs)) in zip(actual, expected).enumerated() where mine != theirs {
            Issue.record("case \(index + 1)\n  hybrid: \(mine)\n  node:   \(theirs)")
        }
    }

    @Test("a File with an empty name keeps its filename parameter, as the HTML Standard has it (node leaves it out)")
    func emptyFileName() async throws {
        let printed = try await encodeInEngine("""
            const fd = new FormData();
            fd.append("empty", new File([], ""));
            encodeMultipart(fd, "B").body.text().then((text) => console.log(JSON.stringify(text)));
            """)
        let expected = #""--B\r\nContent-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n"#
            + #"Content-Type: application/octet-stream\r\n\r\n\r\n--B--\r\n""#
        #expect(printed == expected + "\n")
    }

    /// Runs `script` with `encodeMultipart` and the Blob, File and FormData of the same evaluation
    /// of js/web/blob.js as globals; what it printed once the loop is idle.
    private func encodeInEngine(_ script: String) async throws -> String {
        let printed = Locked("")
        let engine = JSEngine(options: EngineOptions(output: { _, text in printed.withLock { $0 += text } }))
        defer { engine.shutdown() }
        let blob = try #require(WebPlatformScripts.sources.first { $0.name == "blob.js" }?.source)
        let webidl = try #require(WebPlatformScripts.sources.first { $0.name == "webidl.js" }?.source)
        try await engine.perform { context in
            try WebPlatform().install(into: context)
            try context.evaluate("""
                const provided = {};
                const internals = {
                  get: (name) => provided[name] ?? globalThis[name],
                  provide: (name, value) => { provided[name] = value; },
                  platformObjects: { register() {} },
                };
                (function (native, define, internals) {\(webidl)
                })({}, () => {}, internals);
                (function (native, define, internals) {\(blob)
                })({}, (name, value) => { globalThis[name] = value; }, internals);
                globalThis.encodeMultipart = provided.encodeMultipart;
                """, url: "/virtual/web-blob-setup.js")
            try context.evaluate(script, url: "/virtual/web-blob-test.js")
        }
        let outcome = await engine.idle()
        #expect(outcome == .idle, "\(outcome)")
        return printed.read { $0 }
    }
}
