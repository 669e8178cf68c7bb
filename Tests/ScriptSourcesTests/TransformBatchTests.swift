import HostTesting
import ScriptSources
import SystemIO
import Testing

/// A cold start transforms an app's module files in one esbuild run and caches each under the key
/// its own transform would use: what it caches must be that transform's output, byte for byte.
@Suite("transforming many module files in one esbuild run", .enabled(if: Esbuild.path != nil, "esbuild is not installed (scripts/install-deps)"))
struct TransformBatchTests {
    /// An app whose `package.json` and `tsconfig.json` a transform from stdin never reads, and
    /// a batch must not read either: `"type": "module"` would change how an `.ts` imports, the
    /// tsconfig how class fields are made.
    static let app: [String: String] = [
        "package.json": #"{"type": "module"}"#,
        "tsconfig.json": #"{"compilerOptions": {"useDefineForClassFields": false}}"#,
        "src/shapes.ts": """
            import { helper } from "./util.mjs";
            export enum Color { Red, Green = 4 }
            export class Shape {
              size = 3;
              constructor(public name: string) {}
              area(): number { return helper(this.size) * import.meta.scale; }
            }
            export default function () { return new Shape("x"); }
            export const later = () => import("./esm.js");

            """,
        "src/esm.js": "import { helper } from \"./util.mjs\";\nexport default class { run() { return helper(2); } }\nexport const meta = import.meta.url;\n",
        "src/util.mjs": "export function helper(n) { return n * 2; }\nexport * from \"./esm.js\";\n",
        "src/deep/nested/data.mts": "import type { Color } from \"../../shapes\";\nexport const colors: Color[] = [];\nexport default () => import(\"../../esm.js\");\n",
        "src/legacy.cts": "import util = require(\"./util.mjs\");\nexport = { twice: (n: number): number => util.helper(n) };\n",
    ]

    static func modules(in root: String, _ names: [String], resolver: ModuleResolver = ModuleResolver()) throws -> [ModuleSourceFile] {
        try names.map { name in
            let path = root + "/" + name
            return ModuleSourceFile(path: path, source: try FileSystem.text(atPath: path), format: try resolver.format(of: path))
        }
    }

    @Test("each file a batch caches is what its own transform makes: code, map and sources (TS, ESM JS, .mjs, .mts, .cts)")
    func sameAsSingleTransforms() throws {
        let folder = TemporaryFolder(prefix: "transform-batch")
        defer { folder.remove() }
        for (name, text) in Self.app { try folder.write(name, text) }
        let root = FileSystem.realPath(folder.path) ?? folder.path
        let files = try Self.modules(in: root, ["src/shapes.ts", "src/esm.js", "src/util.mjs", "src/deep/nested/data.mts", "src/legacy.cts"])

        let batch = ModuleTransformer(cacheDirectory: root + "/cache")
        #expect(batch.transformAll(files) == files.count)
        let single = ModuleTransformer(cacheDirectory: nil)
        for file in files {
            let expected = try single.compile(path: file.path, source: file.source, format: file.format)
            let cached = try batch.compile(path: file.path, source: file.source, format: file.format)
            #expect(cached.sourceMapFile != nil, "\(file.path) was not cached by the batch")
            #expect(cached.code == expected.code, "\(file.path)")
            #expect(cached.sourceMapText() == expected.sourceMap, "\(file.path)")
            #expect(cached.format == expected.format && !cached.topLevelAwait)
        }
        #expect(batch.transformAll(files) == 0, "a second batch finds every file cached")
    }

    @Test("a file the batch cannot take (top-level await, a syntax error) is left to its own transform and its error")
    func refusedFilesFallBack() throws {
        let folder = TemporaryFolder(prefix: "transform-batch")
        defer { folder.remove() }
        for (name, text) in Self.app { try folder.write(name, text) }
        try folder.write("src/awaits.ts", "const ready: number = await Promise.resolve(1);\nexport { ready };\n")
        try folder.write("src/broken.ts", "export const n: number = 1;\nexport const m = (;\n")
        let root = FileSystem.realPath(folder.path) ?? folder.path
        let files = try Self.modules(in: root, ["src/shapes.ts", "src/awaits.ts", "src/broken.ts", "src/deep/nested/data.mts"])

        let batch = ModuleTransformer(cacheDirectory: root + "/cache")
        #expect(batch.transformAll(files) == 2)
        let shapes = try batch.compile(path: files[0].path, source: files[0].source, format: .module)
        #expect(shapes.sourceMapFile != nil)
        let awaits = try batch.compile(path: files[1].path, source: files[1].source, format: .module)
        #expect(awaits.topLevelAwait)

        let single = ModuleTransformer(cacheDirectory: nil)
        let expected = #expect(throws: TransformError.self) { try single.compile(path: files[2].path, source: files[2].source, format: .module) }
        let reported = #expect(throws: TransformError.self) { try batch.compile(path: files[2].path, source: files[2].source, format: .module) }
        #expect(reported?.description == expected?.description)
        #expect(reported?.line == 2 && reported?.column == 19, "\(String(describing: reported))")
    }

    @Test("the first miss brings the app's other module files: not node_modules, hidden folders, declarations or plain CommonJS")
    func companionsOfTheFirstMiss() throws {
        let folder = TemporaryFolder(prefix: "transform-batch")
        defer { folder.remove() }
        for (name, text) in Self.app { try folder.write(name, text) }
        try folder.write("src/cjs/package.json", #"{"type": "commonjs"}"#)
        try folder.write("src/cjs/plain.js", "module.exports = 1;\n")
        try folder.write("src/cjs/detected.js", "import { helper } from \"../util.mjs\";\nexport const four = helper(2);\n")
        try folder.write("src/types.d.ts", "export declare const x: number;\n")
        try folder.write("node_modules/dep/index.mjs", "export const dep = 1;\n")
        try folder.write(".hidden/skip.ts", "export const hidden = 1;\n")
        let root = FileSystem.realPath(folder.path) ?? folder.path

        let companions = CompanionFiles(resolver: ModuleResolver(), skipping: root + "/cache")
        let found = companions.files(around: root + "/src/deep/nested/data.mts")
        #expect(Set(found.map { String($0.path.dropFirst(root.count + 1)) })
            == ["src/shapes.ts", "src/esm.js", "src/util.mjs", "src/deep/nested/data.mts", "src/legacy.cts", "src/cjs/detected.js"])
        #expect(found.first { $0.path.hasSuffix("detected.js") }?.format == .module, "node's syntax detection, as the loader does it")
        #expect(companions.files(around: root + "/src/shapes.ts").isEmpty, "a folder is scanned once per run")

        let transformer = ModuleTransformer(cacheDirectory: root + "/cache", companions: { [companions = Locked(CompanionFiles(resolver: ModuleResolver(), skipping: root + "/cache"))] path in
            companions.withLock { $0.files(around: path) }
        })
        let main = try Self.modules(in: root, ["src/shapes.ts"])[0]
        _ = try transformer.compile(path: main.path, source: main.source, format: main.format)
        let alone = ModuleTransformer(cacheDirectory: root + "/cache")
        for file in found {
            #expect(try alone.compile(path: file.path, source: file.source, format: file.format).sourceMapFile != nil, "\(file.path)")
        }
    }
}
