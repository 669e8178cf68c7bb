import ArgumentParser
import Bridge
import ContractTools
import HybridHost
import SystemIO

struct ContractsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contracts",
        abstract: "Check the service contracts, or print their TypeScript declarations.",
        subcommands: [Check.self, TypeScript.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Fail where a registered action lacks a contract, a contract names an unregistered action, a schema does not compile, or clients clash."
        )

        func run() throws {
            let contracts: [String: Contract]
            do {
                contracts = try HostServices.contracts()
                for name in contracts.keys.sorted() {
                    do {
                        try contracts[name]!.compileAll()
                    } catch {
                        throw ContractError(message: "services/\(name).json: \(error)")
                    }
                }
            } catch {
                throw CLIFailure(message: "hybrid contracts check: \(error)", code: 1)
            }
            let problems = HostServices.registry().disagreements(with: contracts.filter { $0.key != "bridge" })
                + (contracts["bridge"] == nil ? ["services/bridge.json is missing"] : [])
                + Contract.clientConflicts(contracts)
            guard problems.isEmpty else {
                throw CLIFailure(message: problems.map { "hybrid contracts check: \($0)" }.joined(separator: "\n"), code: 1)
            }
            let actionCount = contracts.values.reduce(0) { $0 + $1.actions.count }
            print("contracts ok: \(contracts.count) targets, \(actionCount) actions")
        }
    }

    struct TypeScript: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dts",
            abstract: "Print TypeScript declarations for Hybrid.call (js/types/hybrid.d.ts)."
        )

        @Option(name: .shortAndLong, help: "Write to this file instead of stdout.")
        var output: String?

        @Flag(help: "Fail if the file named by --output differs from what would be written.")
        var check = false

        @Option(help: "Hand-written declarations to include as they are, in order (repeat for more files): what Hybrid has that no contract describes, and the web platform's globals.")
        var declared = ["js/types/declared.d.ts.in", "js/types/web.d.ts.in"]

        /// The hand-written files as one text, each ending in one newline, a blank line between
        /// them: the same whether read from the repository or embedded in the build.
        static func declaredText(_ parts: [String]) -> String {
            parts.map { String($0.reversed().drop { $0 == "\n" }.reversed()) + "\n" }.joined(separator: "\n")
        }

        func run() throws {
            let contracts: [String: Contract]
            do {
                contracts = try HostServices.contracts()
            } catch {
                throw CLIFailure(message: "hybrid contracts dts: \(error)", code: 1)
            }
            var parts: [String] = []
            for file in declared {
                guard let text = try? FileSystem.text(atPath: file) else {
                    throw CLIFailure(message: "hybrid contracts dts: cannot read \(file) (run from the repository root, or pass --declared FILE)", code: 1)
                }
                parts.append(text)
            }
            let declaredText = Self.declaredText(parts)
            let text = TypeScriptDeclarations.generate(contracts: contracts.keys.sorted().map { contracts[$0]!.json }, declared: declaredText)
            guard let output else {
                StandardStreams.write(text, to: 1)
                return
            }
            if check {
                let current = try? FileSystem.text(atPath: output)
                guard current == text else {
                    throw CLIFailure(message: "\(output) is stale: run `make dts` (hybrid contracts dts -o \(output))", code: 1)
                }
                return
            }
            try FileSystem.write(text, to: output)
        }
    }
}
