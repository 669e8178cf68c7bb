import ArgumentParser
import Glibc
import SystemIO

// ArgumentParser exits 64 on usage errors; HybridHost promises 2 (README, Command line).
do {
    var command = try HybridCommand.parseAsRoot()
    try command.run()
    StandardStreams.flush()
} catch let failure as CLIFailure {
    StandardStreams.flush()
    if !failure.message.isEmpty { StandardStreams.write(failure.message + "\n", to: 2) }
    exit(failure.code)
} catch {
    StandardStreams.flush()
    let code = HybridCommand.exitCode(for: error)
    let message = HybridCommand.fullMessage(for: error)
    if code == .success {
        print(message)
        exit(0)
    }
    if !message.isEmpty { StandardStreams.write(message + "\n", to: 2) }
    exit(code == .validationFailure ? 2 : code.rawValue)
}
