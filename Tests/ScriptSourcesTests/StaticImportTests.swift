@testable import ScriptSources
import Testing

/// What the link step reads before any module runs: the names a JavaScript ES module imports
/// (from its source) and the names an ES module exports (from the transform's output).
@Suite struct StaticImportTests {
    func imports(_ source: String) -> [String] {
        StaticImport.find(in: source).map { request in
            request.specifier + (request.names.isEmpty ? "" : ": " + request.names.map(\.name).joined(separator: " "))
        }
    }

    @Test("every form of import and re-export from another module, with the names it takes")
    func forms() {
        #expect(imports("""
            import "./effects.mjs";
            import d from './default.mjs';
            import * as ns from "./ns.mjs";
            import { a, b as c, default as e, "str name" as f } from "./named.mjs";
            import g, { h } from "./both.mjs";
            import i, * as j from "./star.mjs";
            import {
              k,
              l,
            } from "./lines.mjs"
            import data from "./data.json" assert { type: "json" };
            export { m, n as o } from "./re.mjs";
            export * from "./all.mjs";
            export * as p from "./as.mjs";
            import from from "./from.mjs";
            """) == [
                "./effects.mjs", "./default.mjs: default", "./ns.mjs", "./named.mjs: a b default str name", "./both.mjs: default h",
                "./star.mjs: default", "./lines.mjs: k l", "./data.json: default", "./re.mjs: m n", "./all.mjs", "./as.mjs", "./from.mjs: default",
            ])
    }

    @Test("import() and import.meta, exports of the module's own, and imports in strings, comments or nested code are not static imports")
    func notImports() {
        #expect(imports("""
            const lazy = import("./lazy.mjs");
            console.log(import.meta.url);
            export { own, other as renamed };
            export const x = 1;
            export default function () {}
            // import { a } from "./comment.mjs";
            const s = "import { b } from './string.mjs'";
            const t = `export * from "./template.mjs"`;
            o.import;
            function f() { return { import: 1 }; }
            const r = /import { c } from "\\.\\/regex.mjs"/g;
            const u = `${`import { d } from "./nested.mjs"`}`;
            """) == [])
        // After a division, a regular expression, a template and a block, statements are found again.
        #expect(imports("""
            const half = total / 2; const r = /[/]import/;
            const t = `a${b}c`; { }
            import { after } from "./after.mjs";
            """) == ["./after.mjs: after"])
    }

    @Test("each name knows where it was written (line, UTF-16 column from 1)")
    func positions() throws {
        let request = try #require(StaticImport.find(in: "// é😀\nconst é = 1; import { a,\n  bé } from \"./m.mjs\";").first)
        #expect(request.names == [StaticImport.Name(name: "a", line: 2, column: 23), StaticImport.Name(name: "bé", line: 3, column: 3)])
    }

    @Test("a statement it cannot follow is left out, the others kept")
    func unreadable() {
        #expect(imports("import { a b } from './bad.mjs';\nimport { c } from './good.mjs';") == ["./good.mjs: c"])
        #expect(imports("import { a } from './esc\\u0061ped.mjs';\nimport { c } from './good.mjs';") == ["./good.mjs: c"])
    }

    @Test("exports as the transform writes them: __exportLive, esbuild's block, a top-level-await module's define; export * specifiers")
    func exported() {
        #expect(ExportedNames.find(in: """
            "use strict";
            module.exports = require.helpers.__exportLive(["default", "x", "str name", "a, b]"], (n_exports) => { switch (n_exports) { } }, "11");
            const x = 1;
            """) == ExportedNames(names: ["default", "x", "str name", "a, b]"]))
        #expect(ExportedNames.find(in: """
            var m_exports = {};
            __export(m_exports, {
              a: () => a,
              "str name": () => g,
              y: () => import_n.x
            });
            module.exports = __toCommonJS(m_exports);
            __reExport(m_exports, require("./n.mjs"), module.exports);
            """) == ExportedNames(names: ["a", "str name", "y"], starExports: ["./n.mjs"]))
        #expect(ExportedNames.find(in: """
            var t_exports = {};
            module.exports = __toCommonJS(t_exports);
            __reExport(t_exports, require("./n.mjs"), module.exports);
            module.evaluate = async function(__hybrid_define) {
              __hybrid_define({ "again": () => import_n.x, "later": () => later, "$b": () => $b });
              var later = await __hybrid_define.at(3, 15, Promise.resolve(import_n.x));
            """) == ExportedNames(names: ["again", "later", "$b"], starExports: ["./n.mjs"]))
        #expect(ExportedNames.find(in: "\"use strict\";\nconsole.log(1);\n") == ExportedNames(names: []))
    }

    @Test("exports it cannot read are unknown, never empty: nothing is checked against them")
    func unknownExports() {
        #expect(ExportedNames.find(in: "module.exports = something;\n") == nil)
        #expect(ExportedNames.find(in: "__export(m_exports, {\n  \"a\\\"b\": () => a\n});\n") == nil)
        #expect(ExportedNames.find(in: "__export(m_exports, {\n  a: () => a\n});\nmodule.exports = require.helpers.__exportLive([\"a\"], r);\n") == nil)
    }
}
