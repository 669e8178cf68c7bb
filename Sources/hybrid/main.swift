import ArgumentParser
import Glibc
import SystemIO

// A parent that blocked these (a supervisor, a shell's trap) hands its mask down through exec:
// hybrid would then stop only on SIGKILL, its servers without a graceful shutdown. Each thread
// started later inherits this one's mask.
var terminationSignals = sigset_t()
sigemptyset(&terminationSignals)
for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&terminationSignals, signal) }
pthread_sigmask(SIG_UNBLOCK, &terminationSignals, nil)

// ArgumentParser exits 64 on usage errors; HybridHost promises 2 (README, Command line).
do {
    var command = try HybridCommand.parseAsRoot(InspectFlag.spelled(Array(CommandLine.arguments.dropFirst())))
    try command.run()
} catch let failure as CLIFailure {
    if !failure.message.isEmpty { StandardStreams.write(failure.message + "\n", to: 2) }
    exit(failure.code)
} catch {
    let code = HybridCommand.exitCode(for: error)
    let width = HelpUsageLine.terminalWidth
    let message = HybridCommand.fullMessage(for: error, columns: width)
    if code == .success {
        // --help, help COMMAND, --version: the help screen's usage line wrapped as its paragraphs are.
        print(HelpUsageLine.wrapping(message, width: width))
        exit(0)
    }
    if !message.isEmpty { StandardStreams.write(message + "\n", to: 2) }
    exit(code == .validationFailure ? 2 : code.rawValue)
}
