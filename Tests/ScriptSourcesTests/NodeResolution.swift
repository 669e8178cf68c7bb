import JSON
import ScriptSources
import SystemIO

/// Asks the installed `node` what it resolves requests to, to hold our answers against Node's
/// where our rules and Node's coincide.
enum NodeResolution {
    /// `node` on the PATH; nil where it is not installed.
    static let executable: String? = (ProcessEnvironment["PATH"] ?? "").split(separator: ":").map { $0 + "/node" }
        .first { FileSystem.kind(of: $0) == .file }

    /// Node's answer for each request from a file in `folder`: a path, or `error:CODE`; nil when
    /// this node has no `import.meta.resolve` (an `import` asked of Node 18).
    static func resolve(_ requests: [String], kind: ModuleRequestKind, in folder: String, conditions: [String] = []) throws -> [String]? {
        // The probe lives in `folder`, so that its requests start there as the app's would.
        let probe: String
        switch kind {
        case .require:
            probe = folder + "/node-probe.cjs"
            try FileSystem.write("""
                const answers = process.argv.slice(2).map((request) => {
                  try { return require.resolve(request); } catch (error) { return "error:" + error.code; }
                });
                console.log(JSON.stringify(answers));
                """, to: probe)
        case .import:
            probe = folder + "/node-probe.mjs"
            try FileSystem.write("""
                import { fileURLToPath } from "node:url";
                const answers = typeof import.meta.resolve !== "function" ? null : process.argv.slice(2).map((request) => {
                  try { return fileURLToPath(import.meta.resolve(request)); } catch (error) { return "error:" + error.code; }
                });
                console.log(JSON.stringify(answers));
                """, to: probe)
        }
        defer { FileSystem.remove(probe) }
        let result = try ChildProcess.run(executable ?? "node", conditions.map { "--conditions=" + $0 } + [probe] + requests)
        return try JSONParser.parse(result.output).arrayValue?.map { $0.stringValue ?? "" }
    }

    /// Copies a Debian-packaged npm package (`/usr/share/nodejs/NAME`) into `folder`/node_modules.
    static func install(_ name: String, into folder: String) throws {
        try FileSystem.createDirectories(folder + "/node_modules")
        _ = try ChildProcess.run("cp", ["-R", "/usr/share/nodejs/" + name, folder + "/node_modules/" + name])
    }
}
