import Foundation
import HostTesting
import SystemIO
import Testing

/// What `hybrid run` prints for an error nothing caught: frames that name files that exist, the
/// app's line behind a native call that failed with the error's code and details, and a thrown
/// value that is not an Error printed as node prints it.
@Suite("uncaught errors as hybrid run reports them")
struct UncaughtReportTests {
    /// The files the frames of `report` name (`    at fn (FILE:L:C)`, `    at FILE:L:C`), leaving
    /// out the runtime's own (`hybrid:modules.js`).
    static func framedFiles(_ report: String) -> [String] {
        report.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("    at ") else { return nil }
            var location = line.dropFirst("    at ".count)
            if location.hasSuffix(")"), let open = location.lastIndex(of: "(") {
                location = location[location.index(after: open)..<location.index(before: location.endIndex)]
            }
            let parts = location.split(separator: ":")
            guard parts.count >= 3, !location.hasPrefix("hybrid:") else { return nil }
            return parts.dropLast(2).joined(separator: ":")
        }
    }

    @Test("a module that awaits at top level, run from two folders by relative and absolute paths, names each run's own file",
          .enabled(if: Esbuild.path != nil, "esbuild is not installed (scripts/install-deps)"))
    func topLevelAwaitNamesTheRealFile() async throws {
        let folder = TemporaryFolder(prefix: "uncaught-tla")
        defer { folder.remove() }
        let root = FileSystem.realPath(folder.path) ?? folder.path
        // The same content in two folders, as two apps made by `hybrid init` have; one cache.
        let source = "const stock = await Promise.resolve(\"tea\");\nthrow new Error(`out of ${stock}`);\n"
        for name in ["one", "two"] { try folder.write("\(name)/tla.mjs", source) }
        let environment = ["HYBRID_CACHE_DIR": root + "/cache", "NO_COLOR": "1"]
        // (working folder, the path as given, the file it is)
        let runs = [
            (root, "one/tla.mjs", root + "/one/tla.mjs"),
            (root, root + "/two/tla.mjs", root + "/two/tla.mjs"),
            (root + "/two", "../one/tla.mjs", root + "/one/tla.mjs"),
            (root + "/one", "tla.mjs", root + "/one/tla.mjs"),
            (root + "/one", root + "/two/tla.mjs", root + "/two/tla.mjs"),
            (root + "/two", "tla.mjs", root + "/two/tla.mjs"),
        ]
        for (directory, path, file) in runs {
            let result = try await HybridProcess.tool([HybridProcess.binary.path, "run", path], directory: URL(fileURLWithPath: directory),
                                                environment: environment, mergingErrors: true)
            let run = "hybrid run \(path) in \(directory):\n\(result.output)"
            #expect(result.status == 1, "\(run)")
            #expect(result.output.hasPrefix("Uncaught Error: out of tea\n    at \(file):2:"), "\(run)")
            let named = Self.framedFiles(result.output)
            #expect(!named.isEmpty, "\(run)")
            for name in named { #expect(FileSystem.kind(of: name) == .file, "\(name) does not exist; \(run)") }
        }
    }

    @Test("an uncaught failed native call prints its code and details, and the app's line that made the call")
    func failedNativeCall() async throws {
        let folder = TemporaryFolder(prefix: "uncaught-bridge")
        defer { folder.remove() }
        let root = FileSystem.realPath(folder.path) ?? folder.path
        // Refused at connect, after the call was sent: only the bridge's settle is on the stack then.
        try folder.write("fetch.js", """
            async function fetchTodos() {
              const answer = await Hybrid.call("network", "request", { url: "http://127.0.0.1:1/todos" });
              return answer.body;
            }
            fetchTodos();

            """)
        let failed = try await HybridProcess.run(["run", root + "/fetch.js", "--grant", "network:127.0.0.1"], timeLimit: .seconds(120))
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.standardError.hasPrefix("Uncaught HybridError: "), "\(failed)")
        #expect(failed.standardError.contains("\n    at fetchTodos (\(root)/fetch.js:2:"), "\(failed)")
        #expect(failed.standardError.contains(" {\n  code: 'E_FAILED',\n  target: 'network',\n  action: 'request',\n  details: {"), "\(failed)")
        #expect(failed.standardError.contains("reason: 'connect'"), "\(failed)")
        #expect(failed.standardError.hasSuffix("\n}\n"), "\(failed)")

        // Refused at once (no grant): the same report.
        try folder.write("denied.js", """
            async function readDevice() {
              return await Hybrid.call("device", "info", {});
            }
            readDevice();

            """)
        let denied = try await HybridProcess.run(["run", root + "/denied.js"], timeLimit: .seconds(120))
        #expect(denied.status == 1, "\(denied)")
        #expect(denied.standardError.contains("\n    at readDevice (\(root)/denied.js:2:"), "\(denied)")
        #expect(denied.standardError.hasSuffix(" {\n  code: 'E_DENIED',\n  target: 'device',\n  action: 'info'\n}\n"), "\(denied)")
    }

    /// What node 20 prints for an uncaught `value` (on stderr, after the source line and its
    /// caret): the value's lines, up to the blank line or the `--trace-uncaught` hint.
    static func nodeValue(_ output: String) -> String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let caret = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "^" }) else { return output }
        let value = lines[(caret + 1)...].prefix { !$0.isEmpty && !$0.hasPrefix("(Use `node --trace-uncaught") && !$0.hasPrefix("Node.js v") }
        return value.joined(separator: "\n")
    }

    @Test("a thrown value that is not an Error prints as node prints it, after Uncaught, and exits 1", arguments: [
        "{ code: 42 }", "\"str\"", "42", "null", "undefined", "[1, 2]", "{ code: 42, nested: { a: [1, { b: 2 }] } }",
        "{ a: { b: { c: { d: { e: { f: { g: 1 } } } } } } }",
    ])
    func nonErrorValues(_ value: String) async throws {
        let folder = TemporaryFolder(prefix: "uncaught-value")
        defer { folder.remove() }
        let root = FileSystem.realPath(folder.path) ?? folder.path
        var files = [try folder.write("thrown.cjs", "throw \(value);\n")]
        // Thrown after a top-level await: the main module's evaluation rejects with it.
        if Esbuild.path != nil { files.append(try folder.write("thrown.mjs", "await 0;\nthrow \(value);\n")) }
        for file in files {
            let node = try await HybridProcess.tool(["node", file], directory: URL(fileURLWithPath: root), mergingErrors: true)
            let ours = try await HybridProcess.run(["run", file], timeLimit: .seconds(120), environment: ["HYBRID_CACHE_DIR": root + "/cache"])
            #expect(node.status == 1 && ours.status == 1, "hybrid: \(ours)\nnode: \(node.output)")
            #expect(ours.standardError == "Uncaught \(Self.nodeValue(node.output))\n", "hybrid: \(ours)\nnode: \(node.output)")
        }
    }

    @Test("an uncaught Error's own properties follow its stack as node prints them")
    func errorPropertiesAsNode() async throws {
        let folder = TemporaryFolder(prefix: "uncaught-value")
        defer { folder.remove() }
        let root = FileSystem.realPath(folder.path) ?? folder.path
        let file = try folder.write("thrown.cjs", """
            throw Object.assign(new RangeError("no tea"), { code: "E_STOCK", details: { sku: "tea", shelves: [[1, { left: 0 }]] } });

            """)
        let node = try await HybridProcess.tool(["node", file], directory: URL(fileURLWithPath: root), mergingErrors: true)
        let ours = try await HybridProcess.run(["run", file], timeLimit: .seconds(120))
        #expect(ours.status == 1, "\(ours)")
        // After the last frame: ` {`, the properties one a line, `}`.
        func properties(_ text: String) -> Substring? {
            guard let start = text.range(of: " {\n  "), let end = text[start.lowerBound...].range(of: "\n}") else { return nil }
            return text[start.lowerBound..<end.upperBound]
        }
        #expect(ours.standardError.hasPrefix("Uncaught RangeError: no tea\n    at \(root)/thrown.cjs:1:"), "\(ours)")
        #expect(properties(node.output) != nil, "\(node.output)")
        #expect(properties(ours.standardError) == properties(node.output), "hybrid: \(ours)\nnode: \(node.output)")
    }
}
