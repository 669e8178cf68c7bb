import Engine
import HostTesting
import ScriptSources
import SystemIO
import Testing

/// Modules compiled from TypeScript by esbuild, their maps registered as the module loader does
/// (``JSEngine/sourceMaps``, under the URL the module is compiled with): what the engine reports
/// points at the TypeScript.
@Suite("stacks through source maps", .enabled(if: Esbuild.path != nil, "esbuild is not installed (scripts/install-deps)"))
struct SourceMapStackTests {
    static let cart = """
        // A cart, typed.
        export interface Line { sku: string; price: number; quantity: number }

        export function total(lines: Line[]): number {
          let sum = 0;
          for (const line of lines) {
            if (line.quantity < 0) {
              throw new RangeError(`négative quantity for ${line.sku}`);
            }
            sum += line.price * line.quantity;
          }
          return sum;
        }

        export const checkout = (lines: Line[]): string => "paid " + total(lines);
        checkout([{ sku: "tea", price: 3, quantity: -1 }]);

        """

    /// Transforms `source` (saved as `name`) with esbuild, registers its map for the output's
    /// path, and loads the output as the main module. Returns the TypeScript's path and the run's error.
    static func runTransformed(_ source: String, name: String) async throws -> (typeScript: String, error: ScriptError) {
        let folder = TemporaryFolder(prefix: "engine-source-maps")
        defer { folder.remove() }
        let typeScript = folder.path + "/" + name
        try FileSystem.write(source, to: typeScript)
        let output = try Esbuild.transform(typeScript, to: folder.path + "/out/" + name.replacingOccurrences(of: ".ts", with: ".js"))
        let map = try SourceMap(json: output.map, location: output.mapPath)
        return try await withEngine { host in
            // What compileModule does for a transformed module: register, then compile under the same URL.
            host.engine.sourceMaps.register(url: output.codePath, map: map, firstLineColumnOffset: ScriptContext.moduleWrapperPrefix.utf16.count)
            host.startMain(output.codePath)
            return (typeScript, try #require(await host.idle().failure))
        }
    }

    /// `file:line:column` (1-based) of `token` in `text`.
    static func location(of token: String, in text: String, file: String, after: String? = nil) throws -> String {
        let position = try #require(Esbuild.position(of: token, in: text, after: after))
        return "\(file):\(position.line + 1):\(position.column + 1)"
    }

    @Test("an uncaught throw deep in a TypeScript module names the .ts file, line and column of the throw, in the location and every frame")
    func uncaughtThrow() async throws {
        let (typeScript, error) = try await Self.runTransformed(Self.cart, name: "cart.ts")
        // JavaScriptCore places a `new X(...)` frame at the constructor; the map takes it to the same token in the TypeScript.
        let thrown = try Self.location(of: "RangeError", in: Self.cart, file: typeScript)
        #expect(error.name == "RangeError")
        #expect(error.location == thrown, "\(error)")
        #expect(error.stack.contains("    at total (\(thrown))"), "\(error.stack)")
        #expect(error.stack.contains("    at checkout (\(try Self.location(of: "total(lines)", in: Self.cart, file: typeScript, after: "const checkout")))"), "\(error.stack)")
        #expect(error.stack.contains("    at \(try Self.location(of: "checkout([", in: Self.cart, file: typeScript))"), "\(error.stack)")
        #expect(!error.description.contains("/out/cart.js"), "\(error.description)")
        #expect(error.description.hasPrefix("RangeError: négative quantity for tea\n    at total (\(thrown))"), "\(error.description)")
    }

    @Test("an error on the generated file's first line is mapped from the column after the module wrapper")
    func firstLine() async throws {
        let source = """
            interface Box { open(): void }

            (globalThis as any).missing.open();

            """
        let (typeScript, error) = try await Self.runTransformed(source, name: "box.ts")
        #expect(error.name == "TypeError")
        // JavaScriptCore places a failed property read at the `.` before the property (column 19 of
        // `globalThis.missing.open()`, 62 more with the wrapper); the last mapping before it is `missing`'s.
        let missing = try Self.location(of: "missing.open", in: source, file: typeScript)
        #expect(error.location == missing, "\(error)")
        #expect(error.stack.contains("    at \(missing)\n"), "\(error.stack)")
    }

    @Test("locations of modules without a map are left as JavaScriptCore gives them, line 1 less the wrapper")
    func unmappedModules() async throws {
        try await withFiles(["main.js": "null.boom;\n"]) { root in
            try await withEngine { host in
                host.engine.sourceMaps.register(url: root + "/other.js", map: try SourceMap(["version": 3, "sources": ["x.ts"], "mappings": "AAAA"]))
                host.startMain(root + "/main.js")
                let error = try #require(await host.idle().failure)
                #expect(error.location == "\(root)/main.js:1:5", "\(error)")
            }
        }
    }
}
