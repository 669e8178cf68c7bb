import ArgumentParser
import HybridHost

/// `hybrid`: runs JavaScript apps on JavaScriptCore against native services.
struct HybridCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hybrid",
        abstract: "Run JavaScript business scripts on JavaScriptCore against native services.",
        discussion: """
            Exit codes: 0 ok, 1 script or test failure, 2 usage error.
            Apps are folders with app.json, or single .js files. See README.md.
            """,
        version: "hybrid \(HostServices.hostVersion) (\(HostServices.engineName))",
        subcommands: [InitCommand.self, RunCommand.self, ReplCommand.self, TestCommand.self, RenderCommand.self, ContractsCommand.self, PatchCommand.self, SyncServerCommand.self]
    )
}
