import HostTesting
@testable import ScriptSources
import SystemIO
import Testing

/// Where each top-level `await` of a module waits, so that one that never settles can be named:
/// esbuild lists them, their operands pass through `__hybrid_define.at(line, column, ...)`.
@Suite struct TopLevelAwaitMarkingTests {
    @Test("an operand is the whole unary expression: member chains, calls, new, templates, prefixes, nested awaits")
    func operands() {
        let cases: [(String, String)] = [
            ("await f(1);", "f(1)"),
            ("await a.b?.c[0](x)`t${y}`.d;", "a.b?.c[0](x)`t${y}`.d"),
            ("await new Promise((r) => setTimeout(r, 1)).then(g);", "new Promise((r) => setTimeout(r, 1)).then(g)"),
            ("await !ready;", "!ready"),
            ("await import(\"./m.mjs\");", "import(\"./m.mjs\")"),
            ("await (a, b) + 1;", "(a, b)"),
            ("await x++ + 1;", "x++"),
            ("await `a${b}c${d}e` + 1;", "`a${b}c${d}e`"),
            ("await [a, b];", "[a, b]"),
            ("await obj.#field;", "obj.#field"),
        ]
        for (code, operand) in cases {
            let tokens = SourceScanner(code).tokens
            let range = TopLevelAwaitRewrite.unaryOperand(tokens, after: 0)
            let text = range.map { String(code.utf8[code.utf8.index(code.utf8.startIndex, offsetBy: tokens[$0.first].start)..<code.utf8.index(code.utf8.startIndex, offsetBy: tokens[$0.last].end)])! }
            #expect(text == operand, "\(code)")
        }
        #expect(TopLevelAwaitRewrite.unaryOperand(SourceScanner("await function () {};").tokens, after: 0) == nil)
    }

    @Test("esbuild's top-level awaits are marked with the author's line and column; those in functions are not", .enabled(if: Esbuild.path != nil))
    func marked() throws {
        let esbuild = try #require(Esbuild.path)
        let source = """
            import { x } from "./n.mjs";
            // é
            const a = await f("é");
            async function g() { await h(); }
            for (const y of list) {
              await z(y);
            }
            for await (const k of gen()) {}
            export const b = [await 1, await new Promise((r) => r(2))];
            g();
            """
        let scope = try ChildProcess.run(esbuild, ["--loader=js", "--sourcefile=/app/m.mjs", "--sourcemap=inline", "--sources-content=false",
                                                   "--platform=neutral", "--charset=utf8", "--format=esm", "--bundle", "--external:*"],
                                         input: Array(source.utf8))
        let module = String(decoding: scope.output, as: UTF8.self)
        let sites = try ChildProcess.run(esbuild, TopLevelAwaitRewrite.siteOptions, input: scope.output)
        let marked = TopLevelAwaitRewrite.marking(module, diagnostics: String(decoding: sites.errorOutput, as: UTF8.self))
        let code = ModuleTransformer.splitInlineMap(marked).code
        #expect(code.contains("var a = await __hybrid_define.at(3, 11, f(\"é\"));"), "\(code)")
        #expect(code.contains("  await __hybrid_define.at(6, 3, z(y));"), "\(code)")
        #expect(code.contains("for await (const k of __hybrid_define.at(8, 1, gen()))"), "\(code)")
        #expect(code.contains("[await __hybrid_define.at(9, 19, 1), await __hybrid_define.at(9, 28, new Promise((r) => r(2)))]"), "\(code)")
        #expect(code.contains("await h();"), "\(code)")
        #expect(code.components(separatedBy: "__hybrid_define.at(").count == 6, "\(code)")
        // Marks only add to lines: the map's lines still hold.
        #expect(code.split(separator: "\n", omittingEmptySubsequences: false).count
                == ModuleTransformer.splitInlineMap(module).code.split(separator: "\n", omittingEmptySubsequences: false).count)
    }
}
