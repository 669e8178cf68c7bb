import ArgumentParser
import HybridHost

/// `--inspect[=PORT]` and `--inspect-brk[=PORT]`, as `hybrid run` and `hybrid test` take them
/// (a bare flag is spelled `=0` before parsing: ``InspectFlag``).
struct InspectFlags: ParsableArguments {
    @Option(name: .customLong("inspect"), help: ArgumentHelp("Serve the JS to a debugger on 127.0.0.1 (--inspect alone: any free port).", valueName: "port"))
    var inspectPort: Int?

    @Option(name: .customLong("inspect-brk"), help: ArgumentHelp("As --inspect, and wait for the debugger, then pause at the first statement.", valueName: "port"))
    var inspectBreakPort: Int?

    /// What was asked for; nil without either flag.
    var options: InspectOptions? {
        (inspectPort ?? inspectBreakPort).map { InspectOptions(port: $0, breakOnStart: inspectBreakPort != nil) }
    }

    func validate() throws {
        if inspectPort != nil && inspectBreakPort != nil {
            throw ValidationError("--inspect and --inspect-brk: expected one of them, got both")
        }
        for (flag, port) in [("--inspect", inspectPort), ("--inspect-brk", inspectBreakPort)] {
            if let port, !(0...65535).contains(port) {
                throw ValidationError("\(flag): expected a port from 0 to 65535, got \(port)")
            }
        }
    }

    /// With `--watch`, which restarts what the debugger is attached to.
    func validate(watch: Bool) throws {
        if watch && options != nil {
            throw ValidationError("--inspect: not with --watch (a restart would leave the debugger behind)")
        }
    }
}
