import Engine
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
