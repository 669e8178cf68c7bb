import ArgumentParser
import HybridHost

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an app until its event loop is idle, as node does.",
        discussion: """
            PATH is an app folder with app.json or a single .js file. Uncaught errors print the JS
            stack and exit 1. Arguments after -- reach JS as Hybrid.args.
            """
    )

    @Argument(help: "An app folder (with app.json) or a .js file.")
    var path: String

    @OptionGroup var flags: AppRunFlags

    func run() throws {
        let session: AppSession
        do {
            session = try AppSession(path: path, options: flags.options)
        } catch {
            throw CLIFailure(message: error.message, code: grantFlagProblem(error) ? 2 : 1)
        }
        let outcome = session.run()
        session.shutdown()
        if case .failed(let error) = outcome {
            throw CLIFailure(message: AppSession.report(error, timeLimit: flags.timeLimit), code: 1)
        }
    }

    private func grantFlagProblem(_ error: AppLoadError) -> Bool { error.message.hasPrefix("--") }
}

/// A failure already explained to the user: printed as is, with its exit code.
struct CLIFailure: Error, CustomStringConvertible {
    let message: String
    let code: Int32
    var description: String { message }
}
