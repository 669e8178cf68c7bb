import ArgumentParser
import DebugAdapter
import Dispatch
import SystemIO

/// `hybrid debug APP`: the terminal debugger, a client of the same adapter editors use.
struct DebugCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug",
        abstract: "Debug an app in the terminal (break, cont, next, step, out, bt, print, watch, list).",
        discussion: """
            Runs the app under `hybrid run --inspect-brk`, stopped before its first statement, and \
            reads commands: break FILE:LINE, clear FILE:LINE, cont, next, step, out, pause, bt, \
            print EXPR, watch EXPR, unwatch EXPR, list [N], quit (help lists them). FILE is relative \
            to the app's folder; .ts files and lines are the TypeScript you wrote. The app's output \
            comes through as it runs. Exits with the app's status.
            """
    )

    @Argument(help: "An app folder (with app.json) or a module file.")
    var path: String

    @Option(name: .customLong("data-dir"), help: "Where the app's data lives (default: $XDG_DATA_HOME/hybridhost/<app name>).")
    var dataDirectory: String?

    @Option(name: .customLong("grant"), help: "Targets to grant, comma-separated: storage,network:127.0.0.1 or all.")
    var grants: [String] = []

    @Argument(parsing: .postTerminator, help: "Arguments for the app (after --).")
    var arguments: [String] = []

    func run() throws {
        let executable = FileSystem.linkTarget("/proc/self/exe") ?? CommandLine.arguments[0]
        let launch = TerminalDebugger.Launch(program: path, arguments: arguments, dataDirectory: dataDirectory,
                                             grants: grants.flatMap { $0.split(separator: ",").map(String.init) })
        let status = Locked<Int32>(0)
        let finished = DispatchSemaphore(value: 0)
        Task {
            let code = await TerminalDebugger.run(launch, executable: executable)
            status.withLock { $0 = code }
            finished.signal()
        }
        finished.wait()
        let code = status.value
        if code != 0 { throw CLIFailure(message: "", code: code) }
    }
}
