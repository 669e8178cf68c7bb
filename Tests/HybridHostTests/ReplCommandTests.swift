import Foundation
import HostTesting
import Testing

/// `hybrid repl` with its input piped (not a terminal): lines are read as they come, with no prompt,
/// and each input's result is one block of stdout. Tests/HybridHostTests/tmux-repl.sh drives the
/// same command in a real terminal.
@Suite("hybrid repl")
struct ReplCommandTests {
    /// Runs `hybrid repl arguments...` with `lines` as its input; returns the run.
    private func repl(_ lines: [String], _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) async throws -> HybridProcess.Result {
        let result = try await HybridProcess.run(["repl"] + arguments, timeLimit: .seconds(60), input: lines.joined(separator: "\n") + "\n",
                                                 sourceLocation: sourceLocation)
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    @Test("expressions print as console.log prints them, undefined included, and _ is the last result")
    func expressions() async throws {
        let result = try await repl(["1 + 1", "'text'", "({ a: 1, b: [1, 2] })", "{ a: 1 }", "undefined", "[1, 2, 3].map((n) => n * 2)", "_.length"])
        #expect(result.standardOutput == "2\n'text'\n{ a: 1, b: [ 1, 2 ] }\n{ a: 1 }\nundefined\n[ 2, 4, 6 ]\n3\n", "\(result)")
    }

    @Test("const and let stay global from one input to the next; redeclaring one is an error, as in node")
    func declarationsAcrossLines() async throws {
        let result = try await repl(["const x = 41", "let y = 1", "x + y", "const x = 2", "x"])
        #expect(result.standardOutput == "undefined\nundefined\n42\nUncaught SyntaxError: Can't create duplicate variable: 'x'\n41\n", "\(result)")
    }

    @Test("await at the top level: a bridge call's value prints, and a declaration that awaits stays global")
    func topLevelAwait() async throws {
        let result = try await repl([
            "const info = await Hybrid.call(\"device\", \"info\")",
            "info.platform",
            "await Promise.resolve(5)",
            "const { a, b: [c] } = await Promise.resolve({ a: 1, b: [2] }); a + c",
            "a * 10 + c",
            "await new Promise((resolve) => setTimeout(() => resolve('late'), 20))",
        ], ["--grant", "device"])
        #expect(result.standardOutput == "undefined\n'linux'\n5\n3\n12\n'late'\n", "\(result)")
    }

    @Test("a function over several lines is one input, whole once its brace closes")
    func multiLine() async throws {
        let result = try await repl(["function add(a, b) {", "", "  return a + b", "}", "add(2, 3)", "`a ${1 +", "1} b`", "[1,", "2]"])
        #expect(result.standardOutput == "undefined\n5\n'a 2 b'\n[ 1, 2 ]\n", "\(result)")
    }

    @Test("what an input throws prints as Uncaught ..., with frames of the functions it went through, and the REPL goes on")
    func errors() async throws {
        let result = try await repl([
            "throw new Error(\"boom\")",
            "function g() { return h() }",
            "function h() { throw new TypeError(\"in h\") }",
            "g()",
            "throw 1",
            "await Promise.reject(new RangeError(\"later\"))",
            "foo)",
            "'still here'",
        ])
        #expect(result.standardOutput == """
            Uncaught Error: boom
            undefined
            undefined
            Uncaught TypeError: in h
                at h (REPL3:1:35)
                at g (REPL2:1:24)
            Uncaught 1
            Uncaught RangeError: later
            Uncaught SyntaxError: Unexpected token ')'
            'still here'

            """, "\(result)")
    }

    @Test("a throw in a timer prints as Uncaught and the app goes on")
    func uncaughtInTimer() async throws {
        let result = try await repl([
            "setTimeout(() => { throw new Error(\"in a timer\") }, 1); 'set'",
            "await new Promise((resolve) => setTimeout(resolve, 50))",
            "'after'",
        ])
        #expect(result.standardOutput.hasPrefix("'set'\nUncaught Error: in a timer\n"), "\(result)")
        #expect(result.standardOutput.hasSuffix("undefined\n'after'\n"), "\(result)")
    }

    @Test("an input that runs past --time-limit is stopped, said as hybrid run says it, and the prompt goes on")
    func timeLimit() async throws {
        let result = try await repl(["while (true) {}", "1 + 1"], ["--time-limit", "0.5"])
        #expect(result.standardOutput == "Uncaught TimeLimitError: a synchronous run of JS took longer than 0.5 s (--time-limit) and was stopped\n2\n",
                "\(result)")
    }

    @Test("--typescript: types are stripped from each input (esbuild), await and multi-line inputs work as in JavaScript")
    func typeScript() async throws {
        let result = try await repl([
            "const n: number = 41",
            "n + 1",
            "interface Point { x: number; y: number }",
            "function length(p: Point): number {",
            "  return Math.hypot(p.x, p.y)",
            "}",
            "length({ x: 3, y: 4 })",
            "enum Color { Red, Green }",
            "Color.Green",
            "(await Hybrid.call(\"device\", \"info\") as { platform: string }).platform",
            "{ a: 1 }",
            "let broken: = 1",
        ], ["--typescript", "--grant", "device"])
        #expect(result.standardOutput == "undefined\n42\nundefined\nundefined\n5\nundefined\n1\n'linux'\n{ a: 1 }\nUncaught SyntaxError: Unexpected \"=\"\n",
                "\(result)")
    }

    @Test("an app's main module runs first: its exports are app, its timers tick between inputs, require starts in its folder, its grants hold")
    func appModule() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-repl")
        defer { folder.remove() }
        try folder.write("helper.js", "exports.twice = (n) => n * 2;\n")
        try FileManager.default.copyItem(atPath: HybridProcess.fixture("apps/repl-counter/main.js"), toPath: folder.path + "/main.js")
        try folder.write("app.json", #"{"name": "repl-counter", "main": "main.js", "grants": ["device"]}"#)
        let result = try await repl([
            "app.greet(\"ada\")",
            "const before = app.ticks()",
            "await new Promise((resolve) => setTimeout(resolve, 100))",
            "app.ticks() > before",
            "require(\"./helper\").twice(21)",
            "Hybrid.args",
            "(await Hybrid.call(\"device\", \"info\")).platform",
            "await Hybrid.kv.get({ bucket: \"b\", key: \"k\" }).catch((error) => error.code)",
        ], [folder.path, "--data-dir", folder.path + "/data", "--", "one"])
        #expect(result.standardOutput == "'hello ada'\nundefined\nundefined\ntrue\n42\n[ 'one' ]\n'linux'\n'E_DENIED'\n", "\(result)")
    }

    @Test("a main module that throws stops the REPL before the prompt: exit 1, the error on stderr")
    func failingMain() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-repl")
        defer { folder.remove() }
        let main = try folder.write("broken.js", "throw new Error(\"no start\");\n")
        let result = try await HybridProcess.run(["repl", main, "--data-dir", folder.path + "/data"], timeLimit: .seconds(60), input: "1\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("Uncaught Error: no start"), "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
    }

    @Test("lines go to <data dir>/repl_history, one entry a line, newest last; .exit ends the input there")
    func history() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-repl")
        defer { folder.remove() }
        try folder.write("data/repl_history", "earlier\n")
        let result = try await repl(["1 + 1", "", "function f() {", "  return 1", "}", ".exit", "'not read'"], ["--data-dir", folder.path + "/data"])
        #expect(result.standardOutput == "2\nundefined\n", "\(result)")
        let history = try String(contentsOfFile: folder.path + "/data/repl_history", encoding: .utf8)
        #expect(history == "earlier\n1 + 1\nfunction f() {\n  return 1\n}\n")
    }

    @Test("without an app, the scratch app is granted everything; --grant narrows it")
    func scratchGrants() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-repl")
        defer { folder.remove() }
        let all = try await repl(["await Hybrid.kv.set({ bucket: \"b\", key: \"k\", value: 1 }).then(() => 'stored')"], ["--data-dir", folder.path + "/data"])
        #expect(all.standardOutput == "'stored'\n", "\(all)")
        let narrowed = try await repl(["await Hybrid.kv.get({ bucket: \"b\", key: \"k\" }).catch((error) => error.code)"],
                                      ["--data-dir", folder.path + "/data", "--grant", "device"])
        #expect(narrowed.standardOutput == "'E_DENIED'\n", "\(narrowed)")
    }

    @Test(".help lists the REPL's commands in node's words (without .editor, which needs a terminal, as node's piped REPL does)")
    func help() async throws {
        let result = try await repl([".help"])
        let node = try await HybridProcess.tool(["node", "-i"], input: ".help\n")
        // node -i prints a welcome and a "> " prompt before each line read.
        let nodeHelp = node.output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
            .map { $0.hasPrefix("> ") ? $0.dropFirst(2) : $0 }.filter { $0 != ">" && $0 != "> " }.joined(separator: "\n")
        #expect(result.standardOutput == nodeHelp, "hybrid: \(result)\nnode: \(node.output)")
        #expect(result.standardOutput.hasPrefix(".break   Sometimes you get stuck, this gets you out\n.clear   Alias for .break\n.exit    Exit the REPL\n"),
                "\(result)")
    }

    @Test(".break and .clear drop an unfinished input, an unknown command is said to be one, .exit ends even an unfinished input")
    func commands() async throws {
        let result = try await repl(["[1,", ".break", "'after break'", "function f() {", ".clear", "typeof f", ".nothing", "([1, 2]", ".map((n) => n * 2))",
                                     "(3,", ".exit", "'not read'"])
        #expect(result.standardOutput == "'after break'\n'undefined'\nInvalid REPL keyword\n[ 2, 4 ]\n", "\(result)")
    }

    @Test(".save writes the lines typed; .load evaluates a file as one input; both say what failed, as node does")
    func saveAndLoad() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-repl")
        defer { folder.remove() }
        let script = try folder.write("start.js", "const base = 20\nfunction twice(n) {\n  return n * 2\n}\ntwice(base) + 2\n")
        let result = try await repl([
            "const a = 1", "function g() {", "  return a", "}",
            ".save \(folder.path)/session.js",
            ".load \(script)",
            "twice(base)",
            ".load \(folder.path)/missing.js", ".load \(folder.path)", ".load", ".save", ".save \(folder.path)/no/such/folder/x.js",
        ])
        #expect(result.standardOutput == """
            undefined
            undefined
            Session saved to: \(folder.path)/session.js
            42
            40
            Failed to load: \(folder.path)/missing.js
            Failed to load: \(folder.path) is not a valid file
            The "file" argument must be specified
            The "file" argument must be specified
            Failed to save: \(folder.path)/no/such/folder/x.js

            """, "\(result)")
        #expect(try String(contentsOfFile: folder.path + "/session.js", encoding: .utf8) == "const a = 1\nfunction g() {\n  return a\n}")
    }

    @Test("import() at the prompt loads the app's modules from its folder, as node's import() sees them: CommonJS, ES modules, top-level await, import conditions")
    func dynamicImport() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-repl")
        defer { folder.remove() }
        try folder.write("app.json", #"{"name": "repl-imports", "main": "main.js", "grants": []}"#)
        try folder.write("main.js", "exports.ready = true;\n")
        try folder.write("lib.js", "exports.x = 1;\n")
        try folder.write("x.mjs", "export const y = 2;\nexport default function f() { return 3 }\n")
        try folder.write("slow.mjs", "export const late = await new Promise((resolve) => setTimeout(() => resolve(\"awaited\"), 20));\n")
        try folder.write("node_modules/dual/package.json", #"{"name": "dual", "exports": {"import": "./esm.mjs", "require": "./cjs.cjs"}}"#)
        try folder.write("node_modules/dual/esm.mjs", "export const kind = \"import\";\n")
        try folder.write("node_modules/dual/cjs.cjs", "exports.kind = \"require\";\n")
        let inputs = [
            "await import(\"./lib.js\")",
            "await import('./x.mjs')",
            "(await import(\"./slow.mjs\")).late",
            "(await import(\"dual\")).kind",
            "require(\"dual\").kind",
            "await import(\"./lib.js\").then((m) => m.default.x + m.x)",
            "(await import(\"./x.mjs\")) === (await import(\"./x.mjs\"))",
        ]
        try folder.write("node-check.mjs", """
            import { createRequire } from "node:module";
            import { inspect } from "node:util";
            const require = createRequire(import.meta.url);
            \(inputs.map { "console.log(inspect(\($0)));" }.joined(separator: "\n"))
            """)
        let result = try await repl(inputs + ["const { y } = await import(\"./x.mjs\"); y", "app.ready",
                                              "await import(\"./missing.js\").catch((error) => error.message.includes(\"missing.js\"))"],
                                    [folder.path, "--data-dir", folder.path + "/data"])
        let node = try await HybridProcess.tool(["node", "node-check.mjs"], directory: URL(fileURLWithPath: folder.path))
        #expect(node.status == 0, "node: \(node.output)")
        #expect(result.standardOutput == node.output + "2\ntrue\ntrue\n", "hybrid: \(result)\nnode: \(node.output)")
        #expect(node.output.hasPrefix("[Module: null prototype] { default: { x: 1 }, x: 1 }\n"), "node: \(node.output)")
    }
}
