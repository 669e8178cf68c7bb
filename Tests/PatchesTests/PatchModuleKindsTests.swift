import JSON
import PatchProtocol
import Patches
import Testing

/// Signed patches of TypeScript and ES modules: `hybrid patch sign` transforms them into what will
/// run (CommonJS shape, source map inline) and signs that, so the device needs no transformer;
/// amend and replace work on an ES module's exports, which importers read at each use.
@Suite struct PatchModuleKindsTests {
    static let app: [String: String] = [
        "main.js": """
            globalThis.app = { cart: require("./cart.ts"), report: require("./report.mjs") };
            """,
        "cart.ts": """
            export interface Line { price: number; quantity: number }
            let calls: number = module.hot.data.calls ?? 0;
            module.hot.accept();
            module.hot.dispose((data: { calls?: number }) => { data.calls = calls; });
            export function total(lines: Line[]): number {
              calls += 1;
              return lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
            }
            export const callCount = (): number => calls;
            """,
        "report.mjs": """
            import { total } from "./cart.ts";
            export function line(lines) { return `total ${total(lines)}`; }
            """,
    ]

    /// A patch signed as `hybrid patch sign` signs it: from its JSON, sources transformed.
    func signed(_ fixture: PatchFixture, _ version: Int, _ modules: [String: (String, String)]) throws -> SignedPatch {
        var entries = JSONObject()
        for (name, (mode, source)) in modules.sorted(by: { $0.key < $1.key }) {
            entries.appendUnique(name, ["mode": .string(mode), "source": .string(source)])
        }
        let json: JSONValue = ["app": "patched", "patchVersion": .number(Double(version)), "baseVersion": "1.0.0", "modules": .object(entries)]
        return try PatchSigner.sign(json, privateKey: fixture.key.privateKey)
    }

    @Test("a TypeScript module is signed as the CommonJS that will run, with its source map, and hashes match")
    func signsWhatRuns() async throws {
        try await withPatchApp(Self.app) { app in
            let patch = try signed(app, 1, ["cart.ts": ("amend", "export function total(lines: { price: number }[]): number { return 100; }\n")])
            let source = try #require(patch.sources["cart.ts"])
            #expect(!source.contains(": number"), "types stripped: \(source)")
            #expect(source.contains("//# sourceMappingURL=data:application/json;base64,"), "\(source)")
            #expect(patch.manifest.modules["cart.ts"]?.sha256 == SignedPatch.sha256(source))
        }
    }

    @Test("amend of an ES module's export is seen by a module that imported it, and rollback restores it")
    func amendThroughImports() async throws {
        try await withPatchApp(Self.app) { app in
            try await app.start()
            #expect(try await app.js("app.report.line([{price: 2, quantity: 3}])") == "total 6")
            try await app.apply(try signed(app, 1, ["cart.ts": ("amend", """
                export function total(lines: { price: number; quantity: number }[]): number {
                  return 100 + lines.length;
                }
                """)]))
            #expect(try await app.js("app.report.line([{price: 2, quantity: 3}])") == "total 101")
            #expect(try await app.js("app.cart.total([])") == 100)
            try await app.rollback(reason: "test")
            #expect(try await app.js("app.report.line([{price: 2, quantity: 3}])") == "total 6")
        }
    }

    @Test("replace of a TypeScript module hands state over through module.hot; its new exports are live")
    func replaceTypeScript() async throws {
        try await withPatchApp(Self.app) { app in
            try await app.start()
            #expect(try await app.js("app.cart.total([{price: 1, quantity: 1}]) + app.cart.total([])") == 1)
            try await app.apply(try signed(app, 1, ["cart.ts": ("replace", """
                let calls: number = module.hot.data.calls ?? 0;
                module.hot.accept();
                module.hot.dispose((data: { calls?: number }) => { data.calls = calls; });
                export function total(lines: { price: number; quantity: number }[]): number {
                  calls += 1;
                  return 2 * lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
                }
                export const callCount = (): number => calls;
                """)]))
            // The replaced module is a new namespace: require it again, as after any replace.
            #expect(try await app.js("__hybridModules.cache.get('\(app.appDirectory)/cart.ts').exports.total([{price: 1, quantity: 1}])") == 2)
            #expect(try await app.js("__hybridModules.cache.get('\(app.appDirectory)/cart.ts').exports.callCount()") == 3)
        }
    }

    @Test("a module that awaits at top level is refused at signing, naming it")
    func topLevelAwaitRefused() async throws {
        try await withPatchApp(Self.app) { app in
            #expect {
                try signed(app, 1, ["cart.ts": ("replace", "export const rate: number = await Promise.resolve(2);\n")])
            } throws: { error in
                "\(error)".contains("modules.cart.ts: awaits at top level")
            }
        }
    }
}
