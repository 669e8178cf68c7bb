@testable import ScriptSources
import Testing

/// `import()` in CommonJS becomes the loader's `require.import(`, on tokens: nothing else moves.
@Suite struct CommonJSDynamicImportTests {
    @Test("import( and import ( calls become require.import(; other text is untouched")
    func calls() {
        #expect(CommonJSDynamicImport.rewrite("const m = import(\"./m.mjs\");\nimport (name).then(f);\n")
                == "const m = require.import(\"./m.mjs\");\nrequire.import (name).then(f);\n")
        #expect(CommonJSDynamicImport.rewrite("await Promise.all([import('./a.mjs'), import(`./${b}.mjs`)]);")
                == "await Promise.all([require.import('./a.mjs'), require.import(`./${b}.mjs`)]);")
    }

    @Test("strings, comments, templates, properties and a method named import are left alone")
    func notCalls() {
        let sources = [
            "const s = \"import('./x')\"; // import('./y')\n/* import(z) */ const t = `import(${1})`;",
            "loader.import('./x'); loader?.import('./y');",
            "const o = { import(name) { return name; } };\nclass C { import(x) {} }",
            "const plain = require('./x');",
        ]
        for source in sources {
            #expect(CommonJSDynamicImport.rewrite(source) == source)
        }
    }
}
