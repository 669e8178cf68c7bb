import Foundation
import JSON
import ScriptSources

/// Asks the installed `node` what it resolves requests to, to hold our answers against Node's
/// where our rules and Node's coincide.
enum NodeResolution {
    /// `node` on the PATH; nil where it is not installed.
    static let executable: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map { $0 + "/node" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Node's answer for each request from a script in `folder`: a path, or `error:CODE`; nil when
    /// this node has no `import.meta.resolve` (an `import` asked of Node 18).
    static func resolve(_ requests: [String], kind: ModuleRequestKind, in folder: String, conditions: [String] = []) throws -> [String]? {
        let script: String
        switch kind {
        case .require:
            script = """
                const answers = JSON.parse(process.env.REQUESTS).map((request) => {
                  try { return require.resolve(request); } catch (error) { return "error:" + error.code; }
                });
                console.log(JSON.stringify(answers));
                """
        case .import:
            script = """
                import { fileURLToPath } from "node:url";
                const answers = typeof import.meta.resolve !== "function" ? null : JSON.parse(process.env.REQUESTS).map((request) => {
                  try { return fileURLToPath(import.meta.resolve(request)); } catch (error) { return "error:" + error.code; }
                });
                console.log(JSON.stringify(answers));
                """
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? "/usr/bin/node")
        process.arguments = conditions.map { "--conditions=" + $0 } + (kind == .import ? ["--input-type=module"] : []) + ["-e", script]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ["REQUESTS": JSONWriter.write(.array(requests.map { .string($0) })), "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let answers = try JSONParser.parse(text)
        return answers.arrayValue?.map { $0.stringValue ?? "" }
    }

    /// Copies a Debian-packaged npm package (`/usr/share/nodejs/NAME`) into `folder`/node_modules.
    static func install(_ name: String, into folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/node_modules", withIntermediateDirectories: true)
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = ["-R", "/usr/share/nodejs/" + name, folder + "/node_modules/" + name]
        try copy.run()
        copy.waitUntilExit()
    }
}
