import Foundation
import PackagePlugin

/// Embeds the host's own JavaScript, its service contracts and the servers' OpenAPI documents
/// into the targets that use them, at build time: the repository holds one copy of each file (under
/// `js/`, `services/`, `Sources/*Server/openapi.json`), and the build writes the Swift string
/// literals into its own folder (`scripts/embed-sources` renders them). A change to any of those
/// files rebuilds the target that embeds it.
@main
struct EmbedSources: BuildToolPlugin {
    /// One generated enum: its name, the static member holding the list, and (name, file) pairs.
    struct Embedding {
        var type: String
        var member: String
        var files: [(name: String, path: String)]
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let script = root.appending(path: "scripts/embed-sources")
        return try embeddings(for: target.name, root: root).map { embedding in
            let output = context.pluginWorkDirectoryURL.appending(path: "\(embedding.type).swift")
            let inputs = embedding.files.map { root.appending(path: $0.path) }
            return .buildCommand(
                displayName: "Embedding \(embedding.files.count) file(s) as \(embedding.type)",
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                arguments: ["python3", script.path, output.path, embedding.type, embedding.member, root.path]
                    + embedding.files.map { "\($0.name)=\($0.path)" },
                inputFiles: inputs + [script],
                outputFiles: [output])
        }
    }

    /// What each target embeds.
    func embeddings(for target: String, root: URL) throws -> [Embedding] {
        switch target {
        case "Engine":
            return [Embedding(type: "RuntimeScripts", member: "engine",
                              files: ["globals.js", "console.js", "modules.js"].map { ($0, "js/runtime/\($0)") })]
        case "Bridge":
            return [Embedding(type: "BridgeClientScript", member: "sources",
                              files: ["bridge.js", "view.js", "kv.js", "api.js"].map { ($0, "js/runtime/\($0)") })]
        case "HybridHost":
            let contracts = try files(in: root.appending(path: "services"), ending: ".json")
            return [
                Embedding(type: "TestHarnessScript", member: "sources", files: [("test-harness.js", "js/runtime/test-harness.js")]),
                Embedding(type: "ReplScript", member: "sources", files: [("repl.js", "js/runtime/repl.js")]),
                Embedding(type: "EmbeddedContracts", member: "sources",
                          files: contracts.map { (String($0.dropLast(".json".count)), "services/\($0)") }),
            ]
        case "WebPlatform":
            let scripts = try files(in: root.appending(path: "js/web"), ending: ".js")
            return [Embedding(type: "WebPlatformScripts", member: "sources", files: scripts.map { ($0, "js/web/\($0)") })]
        case "SyncServer":
            return [Embedding(type: "OpenAPIDocument", member: "sources", files: [("sync-server", "Sources/SyncServer/openapi.json")])]
        case "PatchServer":
            return [Embedding(type: "OpenAPIDocument", member: "sources", files: [("patch-server", "Sources/PatchServer/openapi.json")])]
        case "hybrid":
            return [Embedding(type: "DeclaredTypeScript", member: "sources",
                              files: [("declared.d.ts", "js/types/declared.d.ts.in"), ("web.d.ts", "js/types/web.d.ts.in")])]
        default:
            return []
        }
    }

    /// The names of the files in `folder` ending in `suffix`, sorted, so the output is stable.
    func files(in folder: URL, ending suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(suffix) }.sorted()
    }
}
