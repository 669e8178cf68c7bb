import ArgumentParser

/// `hybrid sync-server`: the reference sync server (`serve`, the default) and its operator tools.
struct SyncServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-server",
        abstract: "The reference sync server: run it (serve, the default), or mint a token for it.",
        subcommands: [SyncServerServeCommand.self, SyncServerTokenCommand.self],
        defaultSubcommand: SyncServerServeCommand.self
    )
}
