import ArgumentParser
import HybridHost

/// The flags `hybrid run` and `hybrid repl` share: where the app's data lives, what it may use,
/// how long a synchronous run of JS may take, and the app's own arguments.
struct AppRunFlags: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Where the app's data lives (default: $XDG_DATA_HOME/hybridhost/<app name>).")
    var dataDirectory: String?

    @Option(name: .customLong("grant"), help: "Targets to grant, comma-separated: storage,network:127.0.0.1 or all.")
    var grants: [String] = []

    @Option(name: .customLong("time-limit"), help: "Stop a synchronous run of JS that uses more than this many seconds of CPU time.")
    var timeLimit: Double?

    @Option(name: .customLong("patch-server"), help: ArgumentHelp("Check this patch server instead of app.json's patches.server (a staging server, or one on this machine).", valueName: "url"))
    var patchServer: String?

    @Argument(parsing: .postTerminator, help: "Arguments for the app (after --).")
    var arguments: [String] = []

    func validate() throws {
        if let timeLimit, !(timeLimit > 0) {
            throw ValidationError("--time-limit: expected a positive number of seconds, got \(timeLimit)")
        }
    }

    /// `--grant` entries, each comma-separated list split.
    var grantFlags: [String] { grants.flatMap { $0.split(separator: ",").map(String.init) } }

    var options: AppRunOptions {
        var options = AppRunOptions(dataDirectory: dataDirectory, timeLimitSeconds: timeLimit, arguments: arguments)
        options.grantFlags = grantFlags
        options.patchServer = patchServer
        return options
    }
}
