import ArgumentParser
import Glibc
import HybridHost
import SystemIO

struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "An interactive prompt in a running app, with its grants.",
        discussion: """
            PATH (an app folder or a module file) is loaded first, with its grants and data dir as \
            `hybrid run` would use them; its exports are then `app`, and `require` starts from its \
            folder. Without PATH, a scratch app named repl, granted everything (--grant narrows it), \
            with its data in $XDG_DATA_HOME/hybridhost/repl. The app's event loop runs while you type.

            Each input runs in the global scope; `await` works at the top level, and so does \
            `import("./x.js")`, from the app's folder; results print as console.log prints them, \
            and `_` holds the last one. An unfinished input (an open bracket, string or template) \
            continues on a `... ` line. Tab completes global names and, after `expr.`, properties \
            (twice lists them). Ctrl-C cancels the line, twice on an empty line exits; Ctrl-D on \
            an empty line or .exit exits. .help lists the commands (.editor: several lines, run \
            at Ctrl-D; .load FILE; .save FILE; .break). Up and Down recall earlier lines, kept in \
            <data dir>/repl_history. When stdin is not a terminal, lines are read as they come, \
            with no prompt, until the end of input. With --typescript, or when the app's main \
            module is TypeScript, inputs are TypeScript (esbuild strips the types).
            """
    )

    @Argument(help: "An app folder (with app.json) or a module file; none for a scratch app.")
    var path: String?

    @Flag(help: "Inputs are TypeScript (the default when the app's main module is a .ts file).")
    var typescript = false

    @OptionGroup var flags: AppRunFlags

    func run() throws {
        let interactive = RawTerminal.isInteractive
        let console = ReplConsole()
        let timeLimit = flags.timeLimit
        var options = flags.options
        options.output = { fd, text in console.write(text, to: fd) }
        // A timer's throw or an unhandled rejection is printed, and the app goes on, as in node's REPL.
        options.uncaught = { error in console.write(AppSession.report(error, timeLimit: timeLimit) + "\n", to: 1) }
        let session: AppSession
        do {
            if let path {
                session = try AppSession(path: path, options: options)
            } else {
                let manifest = AppManifest.scratch(name: "repl", directory: ".", grants: options.grantFlags.isEmpty ? ["all"] : options.grantFlags)
                session = try AppSession(manifest: manifest, options: options)
            }
        } catch {
            throw CLIFailure(message: error.message, code: error.message.hasPrefix("--") ? 2 : 1)
        }
        let main = session.manifest.mainPath
        let typeScriptMain = [".ts", ".mts", ".cts"].contains { main.hasSuffix($0) }
        let repl = ReplSession(session: session, typeScript: typescript || typeScriptMain)
        let started = repl.start()
        if started.failed {
            session.shutdown()
            throw CLIFailure(message: started.text, code: 1)
        }
        let history = ReplHistory(dataDirectory: session.app.dataDirectory)
        let conversation = ReplConversation(repl: repl, console: console, history: history, results: ReplResults(console: console))
        var abandoned = false
        if interactive && RawTerminal.enter() {
            defer { RawTerminal.restore() }
            abandoned = conversation.interact(LineEditor(console: console, history: history) { repl.complete($0) })
        } else {
            abandoned = conversation.readPiped()
        }
        if abandoned {
            // The JS thread is still busy with an input (a synchronous loop): joining it would hang.
            Glibc.exit(0)
        }
        session.shutdown()
    }
}
