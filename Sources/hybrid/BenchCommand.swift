import ArgumentParser
import HostBenchmarks

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure our path and its baseline in one run, and print the ratio.",
        discussion: "bridge: raw JSC callback vs Hybrid.call echo. startup: hybrid run hello.js vs node -e 0."
    )

    @Argument(help: "Which benchmark: bridge or startup.")
    var name: String

    @Option(help: "Repetitions (benchmark-specific default).")
    var iterations: Int?

    func run() throws {
        switch name {
        case "bridge": BridgeBenchmark(iterations: iterations).run()
        case "startup": StartupBenchmark(iterations: iterations).run()
        default: throw ValidationError("unknown benchmark \"\(name)\"; expected bridge or startup")
        }
    }
}
