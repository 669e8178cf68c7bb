import ArgumentParser
import DebugAdapter
import Dispatch
import SystemIO

/// `hybrid debug-adapter`: the Debug Adapter Protocol on stdin and stdout, for an editor to start.
struct DebugAdapterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-adapter",
        abstract: "Serve the Debug Adapter Protocol on stdin/stdout, for editors (VS Code, nvim-dap, Helix, Zed).",
        discussion: """
            An editor starts this and speaks DAP to it. A launch request runs `hybrid run PROGRAM \
            --inspect-brk` (its fields: program, args, dataDir, grants, stopOnEntry, cwd, \
            runtimeExecutable); an attach \
            request joins an app started with --inspect (its field: url, the ws:// URL the app \
            printed). A launch whose program ends in .test.ts or .test.js (.mts, .mjs, .cts, \
            .cjs), or with "test": true (a folder of them), runs `hybrid test PROGRAM \
            --inspect-brk` instead: each test file is a thread, started and exited in turn. \
            Breakpoints (conditions, hit counts, logpoints) in .js and .ts lines, \
            exceptions, steps, the stack, scopes and variables, evaluate and set variable. \
            README.md, "Debugging", has editor settings.
            """
    )

    func run() throws {
        // The launch runs this same executable.
        let executable = FileSystem.linkTarget("/proc/self/exe") ?? CommandLine.arguments[0]
        let finished = DispatchSemaphore(value: 0)
        Task {
            await DebugAdapterServer.serve(executable: executable)
            finished.signal()
        }
        finished.wait()
    }
}
