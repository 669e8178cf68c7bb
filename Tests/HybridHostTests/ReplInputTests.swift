import Engine
import HybridHost
import ScriptSources
import Testing

/// How `hybrid repl` reads what was typed (``ReplInput``), against JavaScriptCore's own parser.
@Suite("REPL input")
struct ReplInputTests {
    private func read(_ source: String) -> ReplInput {
        let checker = SyntaxChecker()
        return ReplInput.read(source, tracker: "track") { checker.scriptProblem($0) }
    }

    @Test("an input that stops inside a bracket, string, template, comment or expression waits for more", arguments: [
        "function f() {", "[1,", "foo(", "'abc", "`a ${", "`a ${ {", "/* note", "1 +", "const x =", "if (x)", "await f(",
    ])
    func incomplete(source: String) {
        #expect(read(source) == .incomplete)
    }

    @Test("a whole input, or one that no more text can mend, is a script as typed", arguments: [
        "1 + 1", "const x = 1", "function f() {}", "foo)", "]", "'a' // comment {", "/[{(]/.test('{')", "a / b / c", "async function f() { await 1 }",
    ])
    func script(source: String) {
        #expect(read(source) == .script(source))
    }

    @Test("a brace at the start and end is an object, as in node")
    func objectLiteral() {
        #expect(read("{ a: 1 }") == .script("({ a: 1 }\n)"))
        #expect(read("{ let a = 1 }") == .script("{ let a = 1 }"))
    }

    @Test("await at the top level: declarations hoisted as let (var for var and functions), the last expression returned", arguments: [
        ("await f()", "track((async () => {\nreturn (await f())\n})())"),
        ("const x = await f()", "let x; track((async () => {\nvoid (x = await f())\n})())"),
        ("var a = 1, b = await g(); a + b", "var a, b; track((async () => {\nvoid ( (a = 1), (b = await g())); return (a + b)\n})())"),
        ("let { a, b: [c], d = 1 } = await f()", "let a, c, d; track((async () => {\nvoid ({ a, b: [c], d = 1 } = await f())\n})())"),
        ("function h() {}\nawait h()", "var h; track((async () => {\nh = function h() {};\nreturn (await h())\n})())"),
        ("class K {}; await 1", "let K; track((async () => {\nK = class K {};; return (await 1)\n})())"),
        ("const r = await f()\nr", "let r; track((async () => {\nvoid (r = await f())\nreturn (r)\n})())"),
        ("for await (const v of f()) console.log(v)", "track((async () => {\nfor await (const v of f()) console.log(v)\n})())"),
    ])
    func awaitRewrite(source: String, expected: String) {
        #expect(read(source) == .asynchronous(expected))
    }
}

/// How `hybrid repl` reads inputs beyond their syntax: `import()` through the app's loader, the
/// names Tab completion must be told of, and node's dot commands.
@Suite("REPL input: imports, declared names and commands")
struct ReplInputNamesTests {
    @Test("import(...) calls become the REPL's require.import(...), as in a CommonJS module; import.meta and x.import(...) stay")
    func dynamicImports() {
        #expect(ReplInput.dynamicImports("const { y } = await import('./x.mjs'); import.meta; loader.import(1)")
            == "const { y } = await require.import('./x.mjs'); import.meta; loader.import(1)")
    }

    @Test("the names top-level let, const and class bind (not var or function, which the global object holds)", arguments: [
        ("const x = 1", ["x"]),
        ("let a = 1, { b, c: [d], e = f() } = g(); class K {}", ["a", "b", "d", "e", "K"]),
        ("const r = await f()\nlet s", ["r", "s"]),
        ("var v = 1; function h() { let inner }", []),
        ("{ let block = 1 }", []),
        ("for (let i = 0; i < 2; i++) {}", []),
        ("class extends Base {}", []),
    ])
    func lexicalNames(source: String, expected: [String]) {
        #expect(ReplInput.lexicalNames(source) == expected)
    }

    @Test("a line naming a REPL command is read as node reads it", arguments: [
        (".help", false, ReplKeyword.help),
        ("  .exit  ", false, .exit),
        (".break", true, .break),
        (".clear", false, .break),
        (".editor", false, .editor),
        (".load  lib/start.js ", false, .load("lib/start.js")),
        (".save", false, .save("")),
        (".nothing", false, .invalid),
    ])
    func keyword(line: String, collecting: Bool, expected: ReplKeyword) {
        #expect(ReplKeyword.parse(line, collecting: collecting, terminal: true) == expected)
    }

    @Test("a line that is JavaScript is no command: a number, a spread, a method chain being continued, no dot", arguments: [
        (".5 + 1", false), ("...rest", false), (".map((n) => n * 2)", true), ("x.help", false), ("", false),
    ])
    func notKeyword(line: String, collecting: Bool) {
        #expect(ReplKeyword.parse(line, collecting: collecting, terminal: true) == nil)
    }

    @Test(".editor exists only at a terminal, as in node, and .help lists it only there")
    func editorAtTerminal() {
        #expect(ReplKeyword.parse(".editor", collecting: false, terminal: false) == .invalid)
        #expect(ReplKeyword.help(terminal: true).contains(".editor   Enter editor mode\n"))
        #expect(!ReplKeyword.help(terminal: false).contains(".editor"))
    }
}
