import ScriptSources
import SystemIO

/// esbuild (`scripts/install-deps` installs it), run as a child for tests that need
/// what the TypeScript/ES module transform really writes: CommonJS and its source map.
///
/// ```swift
/// let output = try Esbuild.transform(folder.path + "/cart.ts", to: folder.path + "/out/cart.js")
/// let map = try SourceMap(json: output.map, location: output.mapPath)
/// ```
public enum Esbuild {
    /// What one transform wrote: the code, and the external map beside it (`<output>.map`).
    public struct Output: Sendable {
        public let code: String
        public let map: String
        public let codePath: String
        public let mapPath: String
    }

    /// esbuild exited with an error; `output` is what it printed.
    public struct Failure: Error, CustomStringConvertible {
        public let output: String
        public var description: String { "esbuild failed: \(output)" }
    }

    /// The executable the module loader would run (`HYBRID_ESBUILD`, else the first on `PATH`);
    /// nil when there is none.
    public static var path: String? { ModuleTransformer.findEsbuild() }

    /// `esbuild FILE --format=cjs --sourcemap=external --outfile=OUTPUT`, with `extra` arguments after.
    public static func transform(_ file: String, to output: String, extra: [String] = []) throws -> Output {
        guard let path else { throw Failure(output: "no esbuild on PATH (scripts/install-deps installs it)") }
        let arguments = [file, "--format=cjs", "--sourcemap=external", "--outfile=\(output)", "--log-level=warning"] + extra
        let result = try ChildProcess.run(path, arguments)
        guard result.status == 0 else { throw Failure(output: String(decoding: result.output + result.errorOutput, as: UTF8.self)) }
        return Output(code: try FileSystem.text(atPath: output), map: try FileSystem.text(atPath: output + ".map"),
                      codePath: output, mapPath: output + ".map")
    }

    /// Where `token` first appears in `text` (after the first line holding `after`, when given):
    /// 0-based line and column, the column in UTF-16 code units, as source maps count.
    public static func position(of token: String, in text: String, after: String? = nil) -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let first = after.flatMap { marker in lines.firstIndex { $0.contains(marker) } } ?? 0
        for number in first..<lines.count {
            if let range = lines[number].range(of: token) {
                return (number, lines[number][..<range.lowerBound].utf16.count)
            }
        }
        return nil
    }
}
