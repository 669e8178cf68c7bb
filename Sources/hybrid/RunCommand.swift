import ArgumentParser
import Glibc
import HybridHost
import SystemIO

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an app until its event loop is idle, as node does.",
        discussion: """
            PATH is an app folder with app.json, or a single module file \
            (\(AppManifest.moduleExtensions.joined(separator: " "))). Its modules are CommonJS, ES \
            modules or TypeScript, mixed: require and import find \(AppManifest.moduleExtensions.joined(separator: " ")) \
            and .json files, without the extension too. Uncaught errors print the JS stack and exit 1. \
            Arguments after -- reach JS as Hybrid.args.

            --watch keeps running: when a file the app has loaded changes, the changed modules that \
            called module.hot.accept() are swapped into the running app (state handed over through \
            module.hot.dispose and module.hot.data); any other change to them, app.json or the main \
            module restarts the app in this process, with the same data dir. A change that does not \
            compile is reported and the app runs on. One line per reload on stderr says which. An \
            app that ends is started again at the next change. Swaps are unsigned: an app with \
            patchKeys needs --data-dir, and a data dir holding signed patches is refused.

            --a11y makes the app's views speak instead of paint: stdout gets one plain line per \
            change of focus or of what the focused node says ("button Add, 1 of 2"), for a screen \
            reader or `espeak-ng` to read; keys still work. --a11y-file PATH paints as usual and \
            appends those lines to PATH (for `tail -f PATH | espeak-ng`).

            --inspect serves the app's JavaScriptCore context to a debugger: stderr's first line is \
            "Debugger listening on ws://127.0.0.1:PORT/SECRET", a WebSocket speaking the WebKit \
            Inspector Protocol, on 127.0.0.1 only, at a path with a secret made for the run (anyone \
            who has the URL can run JS in the app). --inspect-brk waits for a debugger to send \
            Runtime.runIfWaitingForDebugger, then pauses at the main module's first statement. \
            PORT is 0 (any free port) unless given as --inspect=PORT. `hybrid debug-adapter` is \
            the debugger editors start.
            """
    )

    @Argument(help: "An app folder (with app.json) or a module file.")
    var path: String

    @Flag(name: .customLong("watch"), help: "Swap edited modules into the running app, or restart it, at each change; until interrupted.")
    var watch = false

    @Flag(name: .customLong("a11y"), help: "Views write screen-reader lines to stdout instead of painting the screen.")
    var a11y = false

    @Option(name: .customLong("a11y-file"), help: ArgumentHelp("Views paint as usual and append screen-reader lines to this file.", valueName: "path"))
    var a11yFile: String?

    @OptionGroup var inspect: InspectFlags

    @OptionGroup var flags: AppRunFlags

    func validate() throws {
        try inspect.validate(watch: watch)
    }

    private var options: AppRunOptions {
        var options = flags.options
        options.inspect = inspect.options
        return options
    }

    func run() throws {
        // The view service reads it at each mount (view.mount's accessible).
        if let a11yFile {
            setenv("HYBRID_A11Y", a11yFile, 1)
        } else if a11y {
            setenv("HYBRID_A11Y", "1", 1)
        }
        if watch { return try runWatching(flags.options) }
        let session: AppSession
        do {
            session = try AppSession(path: path, options: options)
        } catch {
            throw CLIFailure(message: error.message, code: grantFlagProblem(error) ? 2 : 1)
        }
        if let inspector = session.inspector {
            StandardStreams.write("Debugger listening on \(inspector.frontendURL)\n", to: 2)
        }
        let outcome = session.run()
        let unsettled = outcome == .idle ? session.unsettledTopLevelAwait() : nil
        session.shutdown()
        if case .failed(let error) = outcome {
            throw CLIFailure(message: AppSession.report(error, timeLimit: flags.timeLimit), code: 1)
        }
        // Node's exit code for a main module whose top-level await can no longer settle.
        if let unsettled { throw CLIFailure(message: String(unsettled.dropLast()), code: 13) }
    }

    /// `--watch`: refused (exit 2) for a signed app's data; otherwise runs until interrupted.
    private func runWatching(_ options: AppRunOptions) throws {
        let watcher: AppWatcher
        do {
            watcher = try AppWatcher(path: path, options: options)
        } catch {
            throw CLIFailure(message: error.message, code: grantFlagProblem(error) ? 2 : 1)
        }
        watcher.run()
    }

    /// A usage error (exit 2): a path that names no app, or a flag at fault.
    private func grantFlagProblem(_ error: AppLoadError) -> Bool { error.usage || error.message.hasPrefix("--") }
}

/// A failure already explained to the user: printed as is, with its exit code.
struct CLIFailure: Error, CustomStringConvertible {
    let message: String
    let code: Int32
    var description: String { message }
}
