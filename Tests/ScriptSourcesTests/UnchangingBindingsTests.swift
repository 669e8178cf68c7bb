@testable import ScriptSources
import Testing

/// Which exported bindings may become plain values once a module has run: any write, however
/// spelled, keeps a binding live; only a name declared once and never written is settled.
@Suite struct UnchangingBindingsTests {
    func unchanging(_ code: String, _ names: Set<String> = ["x"]) -> Set<String> {
        UnchangingBindings.find(names, in: code)
    }

    @Test("declared once and only read: function, class, const, let, var, async and generator functions")
    func readOnly() {
        #expect(unchanging("function x() {}\nconsole.log(x(), x);") == ["x"])
        #expect(unchanging("class x { m() { return x; } }") == ["x"])
        #expect(unchanging("const x = 1;\nconst y = x + 1;") == ["x"])
        #expect(unchanging("let x = 1;\nif (x == 2 || x === 3) f(x);") == ["x"])
        #expect(unchanging("var x = x || {};\n{ const x2 = x; x2.a = 1; }") == ["x"])
        #expect(unchanging("async function x() {}") == ["x"])
        #expect(unchanging("function* x() {}") == ["x"])
        #expect(unchanging("const f = (x) => x;\nfunction x() {}") == ["x"])
    }

    @Test("property names, keys and strings are not the binding")
    func notTheBinding() {
        #expect(unchanging("function x() {}\no.x = 1; o?.x; a = { x: 1 }; s = \"x = 1\"; t = `x = ${1}`; // x = 2\n/* x = 3 */") == ["x"])
        #expect(unchanging("function x() {}\nclass C { x() {} get x() { return 1; } }") == ["x"])
    }

    @Test("every way of writing a binding keeps it live", arguments: [
        "x = 2;", "x += 2;", "x ||= 2;", "x ??= 2;", "x **= 2;", "x >>>= 1;", "x++;", "x--;", "++x;", "--x;",
        "[x] = [2];", "[a, x] = [1, 2];", "[x, a] = [1, 2];", "[a, [x]] = [1, [2]];", "[...x] = [];", "[x = 1] = [];",
        "({ x } = o);", "({ a: x } = o);", "({ a: x, b } = o);", "({ a: [x] } = o);", "(x) = 2;", "((x)) = 2;",
        "for (x of list) {}", "for (x in o) {}", "for ([x] of list) {}", "function f() { x = 3; }",
        "var x = 2;", "eval(\"x = 2\");",
    ])
    func written(_ write: String) {
        #expect(unchanging("var x = 1;\n" + write) == [])
    }

    @Test("reads beside patterns, arguments and arrows are not writes")
    func readsNearPatterns() {
        #expect(unchanging("const x = 1;\nf(x, 2); g([x, 1]); h({ x }); const k = (a, b) => a; [1, x].map((v) => v);") == ["x"])
        #expect(unchanging("const x = 1;\nconst [a, b] = [x, x];\nlet c; c = [x];") == ["x"])
    }

    @Test("not declared here, or declared twice, or source it cannot read: live")
    func doubtful() {
        #expect(unchanging("f(x);") == [])
        #expect(unchanging("function x() {}\nfunction g() { var x = 1; return x; }") == [])
        #expect(unchanging("const x = 1;\nconst s = \"open") == [])
        #expect(unchanging("const x = 1;\n}") == [])
    }

    @Test("each name on its own: one written, one not")
    func several() {
        #expect(unchanging("function a() {}\nlet b = 1;\nb++;\nclass c {}", ["a", "b", "c"]) == ["a", "c"])
    }
}
