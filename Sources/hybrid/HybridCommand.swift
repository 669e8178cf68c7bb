import ArgumentParser
import HybridHost

/// `hybrid`: runs JavaScript apps on JavaScriptCore against native services.
struct HybridCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hybrid",
        abstract: "Run JavaScript business scripts on JavaScriptCore against native services.",
        discussion: """
            An app is a folder with app.json, or a single module file \
            (\(AppManifest.moduleExtensions.joined(separator: " "))). Exit codes: 0 ok, 1 script or \
            test failure, 2 usage error. README.md has the rest.
            """,
        version: "hybrid \(HostServices.hostVersion) (\(HostServices.engineName))",
        subcommands: [InitCommand.self, RunCommand.self, ReplCommand.self, TestCommand.self, DebugCommand.self, DebugAdapterCommand.self, RenderCommand.self, ContractsCommand.self, PatchCommand.self, SyncServerCommand.self, PatchServerCommand.self]
    )
}
