import Engine
import HostTesting
import HybridHost
import ScriptSources
import SystemIO

/// A TypeScript file made CommonJS by the real esbuild, in a folder of its own, run in an
/// in-process session whose engine has the file's source map registered under the output's path,
/// as the module loader registers a transformed module's map before compiling it under that path.
struct TranspiledScript {
    let folder = TemporaryFolder(prefix: "transpiled")
    let source: String
    let typeScript: String
    let output: Esbuild.Output

    init(_ source: String, name: String) throws {
        self.source = source
        typeScript = folder.path + "/" + name
        try FileSystem.write(source, to: typeScript)
        output = try Esbuild.transform(typeScript, to: folder.path + "/out/" + name.replacing(".ts", with: ".js"))
    }

    /// A session running the output as its main module, its map registered.
    func session(output print: (@Sendable (Int32, String) -> Void)? = nil) throws -> AppSession {
        var options = AppRunOptions(dataDirectory: folder.path + "/data")
        options.output = print
        let session = try AppSession(path: output.codePath, options: options)
        session.engine.sourceMaps.register(url: output.codePath, map: try SourceMap(json: output.map, location: output.mapPath),
                                           firstLineColumnOffset: ScriptContext.moduleWrapperPrefix.utf16.count)
        return session
    }

    /// `file.ts:line:column` (1-based) of the first `token` in the TypeScript, after the first line holding `after`.
    func location(of token: String, after: String? = nil) -> String? {
        Esbuild.position(of: token, in: source, after: after).map { "\(typeScript):\($0.line + 1):\($0.column + 1)" }
    }

    func remove() { folder.remove() }
}
