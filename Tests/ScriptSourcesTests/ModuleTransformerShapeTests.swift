@testable import ScriptSources
import Testing

/// The rewrites the transformer makes to esbuild's CommonJS output (``ModuleTransformer/hostHooks(_:)``):
/// cheaper for JavaScriptCore, the same behaviour (the module conformance fixtures check that
/// against node), and every line where the source map says it is.
@Suite struct ModuleTransformerShapeTests {
    /// What esbuild 0.17 prints for a module that imports `total` from "./m4" and exports `Cart3`,
    /// `Kind`, `total` and the import as "next-total" (the enum left out, the bodies shortened).
    static let esbuildOutput = """
        "use strict";var __hybrid_import_meta = module.meta;
        var __defProp = Object.defineProperty;
        var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
        var __getOwnPropNames = Object.getOwnPropertyNames;
        var __hasOwnProp = Object.prototype.hasOwnProperty;
        var __export = (target, all) => {
          for (var name in all)
            __defProp(target, name, { get: all[name], enumerable: true });
        };
        var __copyProps = (to, from, except, desc) => {
          if (from && typeof from === "object" || typeof from === "function") {
            for (let key of __getOwnPropNames(from))
              if (!__hasOwnProp.call(to, key) && key !== except)
                __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
          }
          return to;
        };
        var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);
        var m3_exports = {};
        __export(m3_exports, {
          Cart3: () => Cart3,
          Kind: () => Kind,
          "next-total": () => import_m4.total,
          total: () => total
        });
        module.exports = __toCommonJS(m3_exports);
        var import_m4 = require("./m4");
        class Cart3 {
        }
        function total() {
          return (0, import_m4.total)();
        }
        """

    func lines(_ code: String) -> [Substring] { code.split(separator: "\n", omittingEmptySubsequences: false) }

    @Test("the exports block becomes one __exportLive call with the same names in the same order, on the block's first line")
    func exportsBlock() {
        let code = ModuleTransformer.hostHooks(Self.esbuildOutput, topLevelAwait: true)
        let before = lines(Self.esbuildOutput), after = lines(code)
        #expect(after.count == before.count)
        let start = before.firstIndex(of: "var m3_exports = {};")!
        #expect(after[start] == #"module.exports = require.helpers.__exportLive(["Cart3", "Kind", "next-total", "total"], (m3_exports) => { switch (m3_exports) { case 0: return Cart3; case 1: return Kind; case 2: return import_m4.total; case 3: return total; } });"#)
        #expect(after[(start + 1)...(start + 7)].allSatisfy { $0.isEmpty })
        #expect(Array(after[(start + 8)...]) == Array(before[(start + 8)...]))
    }

    @Test("exports bound to names never written become values at the module's end; an import's re-export and a written name stay live")
    func settledExports() {
        let code = ModuleTransformer.hostHooks(Self.esbuildOutput)
        let before = lines(Self.esbuildOutput), after = lines(code)
        let start = before.firstIndex(of: "var m3_exports = {};")!
        // Kind is not declared in this shortened output, so it stays live too.
        #expect(after[start].hasSuffix(#"case 3: return total; } }, "1001");"#))
        #expect(after.count == before.count + 1)
        #expect(Array(after[(start + 8)..<before.count]) == Array(before[(start + 8)...]))
        #expect(after.last == "require.helpers.__exportSettle(module.exports, [Cart3, total]);")

        let written = Self.esbuildOutput + "\nfunction reset() { [total] = [null]; }"
        #expect(lines(ModuleTransformer.hostHooks(written))[start].hasSuffix(#"} }, "1000");"#))
        let withMap = Self.esbuildOutput + "\n//# sourceMappingURL=data:application/json;base64,e30="
        let mapped = lines(ModuleTransformer.hostHooks(withMap))
        #expect(mapped[mapped.count - 2] == "require.helpers.__exportSettle(module.exports, [Cart3, total]);")
        #expect(mapped.last!.hasPrefix("//# sourceMappingURL="))
    }

    @Test("only the shared helpers the code names are taken from require.helpers; the lines stay")
    func helpersTaken() {
        let none = lines(ModuleTransformer.hostHooks(Self.esbuildOutput))
        #expect(none[1] == "")
        let reexporting = Self.esbuildOutput + "\n__reExport(m3_exports, require(\"./star\"), module.exports);"
        let some = lines(ModuleTransformer.hostHooks(reexporting))
        #expect(some.count == lines(reexporting).count)
        #expect(some[1] == "var __export = require.helpers.__export, __toCommonJS = require.helpers.__toCommonJS;")
    }

    @Test("an exports object used again (export * re-exports into it) keeps esbuild's block")
    func exportsObjectUsedElsewhere() {
        let source = Self.esbuildOutput + "\n__reExport(m3_exports, require(\"./star\"), module.exports);"
        #expect(ModuleTransformer.liveExports(source) == source)
    }

    @Test("a getter that is not a plain binding, or a block without esbuild's helpers above it, is left as written")
    func otherShapes() {
        let computed = Self.esbuildOutput.replacingOccurrences(of: "  Kind: () => Kind,", with: "  Kind: () => Kind(),")
        #expect(ModuleTransformer.liveExports(computed) == computed)
        let authored = Self.esbuildOutput.replacingOccurrences(of: "var __export = (target, all) => {", with: "var __export2 = (target, all) => {")
        #expect(ModuleTransformer.liveExports(authored) == authored)
    }

    @Test("an enum of literal members becomes a block with the same alias; its member lines and the line count stay")
    func literalEnum() {
        let enumOutput = """
            var Kind = /* @__PURE__ */ ((Kind2) => {
              Kind2[Kind2["Plain"] = 0] = "Plain";
              Kind2[Kind2["Negative"] = -1.5] = "Negative";
              Kind2["Label"] = "a label";
              return Kind2;
            })(Kind || {});
            var after = 1;
            """
        #expect(lines(ModuleTransformer.flatEnums(enumOutput)) == [
            "var Kind = Kind || {}; { const Kind2 = Kind;",
            #"  Kind2[Kind2["Plain"] = 0] = "Plain";"#,
            #"  Kind2[Kind2["Negative"] = -1.5] = "Negative";"#,
            #"  Kind2["Label"] = "a label";"#,
            "}", "", "var after = 1;",
        ])
    }

    @Test("an enum with a computed member, or one merged into a namespace, is left as esbuild wrote it", arguments: [
        #"  Kind2[Kind2["Size"] = "ab".length] = "Size";"#,
        #"  Kind2[Kind2["Next"] = Kind2.Plain + 1] = "Next";"#,
        #"  Kind2[Kind2["Bad"] = 1 - x] = "Bad";"#,
    ])
    func otherEnums(member: String) {
        let computed = "var Kind = /* @__PURE__ */ ((Kind2) => {\n  Kind2[Kind2[\"Plain\"] = 0] = \"Plain\";\n\(member)\n  return Kind2;\n})(Kind || {});"
        #expect(ModuleTransformer.flatEnums(computed) == computed)
        let namespaced = "  let Kind;\n  ((Kind2) => {\n    Kind2[Kind2[\"A\"] = 0] = \"A\";\n  })(Kind = Shapes.Kind || (Shapes.Kind = {}));"
        #expect(ModuleTransformer.flatEnums(namespaced) == namespaced)
    }

    @Test("import.meta's declaration is dropped when the module never reads it, and kept when it does")
    func importMetaBanner() {
        let unused = ModuleTransformer.lazyImportMeta(Self.esbuildOutput)
        #expect(lines(unused)[0] == "\"use strict\";")
        #expect(lines(unused).count == lines(Self.esbuildOutput).count)
        let used = Self.esbuildOutput + "\nconst url = __hybrid_import_meta.url;"
        #expect(ModuleTransformer.lazyImportMeta(used) == used)
    }
}
