import Foundation
import JSON
import ScriptSources
import Testing

/// `hybrid <command> --help` for every command the CLI's configuration declares, as a person reads
/// it in a terminal: swift-argument-parser wraps each paragraph at the terminal's width itself, so
/// a line break typed into a help text shows as a sentence cut off in the middle of the line.
@Suite("help texts", .serialized)
struct HelpTextTests {
    /// Every command path, from the configuration itself (`--experimental-dump-help`, the tree
    /// swift-argument-parser builds from each `CommandConfiguration`): `[]` is `hybrid`,
    /// `["patch", "sign"]` is `hybrid patch sign`.
    static func commands() async throws -> [[String]] {
        let dump = try await HybridProcess.run(["--experimental-dump-help"])
        try #require(dump.status == 0, "\(dump)")
        let tree = try JSONParser.parse(dump.standardOutput)
        var paths: [[String]] = []
        func walk(_ command: JSONValue, _ path: [String]) {
            paths.append(path)
            guard case .array(let subcommands)? = command["subcommands"] else { return }
            for subcommand in subcommands {
                if let name = subcommand["commandName"]?.stringValue { walk(subcommand, path + [name]) }
            }
        }
        walk(try #require(tree["command"]), [])
        return paths
    }

    @Test("every command's --help fits 80 columns and breaks lines only where the width makes it")
    func everyCommand() async throws {
        let commands = try await Self.commands()
        #expect(commands.count > 15, "the command tree: \(commands)")
        for command in commands {
            for width in [80, 200] {
                let run = try await HybridProcess.run(command + ["--help"], environment: ["COLUMNS": String(width)])
                let name = (["hybrid"] + command).joined(separator: " ")
                #expect(run.status == 0, "\(name) --help: \(run)")
                let problems = HelpLayout.problems(in: run.standardOutput, width: width)
                #expect(problems.isEmpty, "\(name) --help at COLUMNS=\(width):\n\(problems.joined(separator: "\n"))\n\(run.standardOutput)")
            }
        }
    }

    @Test("the check finds a line typed into a sentence, a line too long, and passes what the wrapper broke")
    func checkFindsBreaks() {
        let typed = """
            OVERVIEW: Print a JSON-described view as text.

            Lays VIEW.json out at --width cells (default: the terminal's columns, else 80)
            with the
            data of --data, and prints the frame.
            """
        #expect(HelpLayout.problems(in: typed, width: 80).count == 1)
        let option = """
            OPTIONS:
              --data <data>           The data its templates read,
                                      as a JSON file.
            """
        #expect(HelpLayout.problems(in: option, width: 80).count == 1)
        let wide = String(repeating: "word ", count: 17) + "wordy"
        #expect(HelpLayout.problems(in: wide, width: 80) == ["line 1 is 90 columns, over 80: \(wide)"])
        let wrapped = """
            OVERVIEW: Run JavaScript business scripts on JavaScriptCore against native
            services.

            Exit codes: 0 ok, 1 script or test failure, 2 usage error.
            Apps are folders with app.json. See README.md.

            USAGE: hybrid run <path> [--watch] [--data-dir <data-dir>] [--grant <grant> ...]
                              [--time-limit <time-limit>] -- [<arguments> ...]

            OPTIONS:
              --time-limit <time-limit>
                                      Stop a synchronous run of JS that takes longer than
                                      this many seconds.
              --grant <grant>         Targets to grant, comma-separated:
                                      storage,network:127.0.0.1 or all.
            """
        #expect(HelpLayout.problems(in: wrapped, width: 80) == [])
    }

    @Test("hybrid run --help names every extension a module may have, and the usage line wraps at words")
    func runNamesExtensions() async throws {
        let run = try await HybridProcess.run(["run", "--help"], environment: ["COLUMNS": "80"])
        #expect(run.status == 0, "\(run)")
        for ext in ModuleResolver.extensions {
            #expect(run.standardOutput.contains(ext), "\(ext) is not named:\n\(run.standardOutput)")
        }
        let usage = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("USAGE: ") }.prefix { !$0.isEmpty }
        #expect(usage.count >= 2, "\(run.standardOutput)")
        for line in usage.dropFirst() {
            #expect(line.hasPrefix("                  [") || line.hasPrefix("                  -- "),
                    "continued under the command's first argument:\n\(run.standardOutput)")
        }
        #expect(usage.joined().contains("[--time-limit <time-limit>]"), "an option is never cut in two:\n\(run.standardOutput)")
    }

    @Test("hybrid help COMMAND wraps as --help does")
    func helpCommand() async throws {
        let help = try await HybridProcess.run(["help", "sync-server", "token"], environment: ["COLUMNS": "80"])
        let flag = try await HybridProcess.run(["sync-server", "token", "--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0 && flag.status == 0, "\(help)\n\(flag)")
        #expect(help.standardOutput == flag.standardOutput)
        #expect(HelpLayout.problems(in: help.standardOutput, width: 80) == [], "\(help.standardOutput)")
    }
}

/// How a help screen is laid out, read back from its text.
enum HelpLayout {
    /// What reads wrong in `help` rendered at `width` columns: a line longer than the width, or a
    /// line broken before a word that would have fitted on it (the wrapper breaks a line only when
    /// the next word does not fit, so such a break was typed into the text). A break after a
    /// sentence, before a capital, may be meant (one sentence a line) and passes. The usage
    /// synopsis is wrapped between its elements (`[--grant <grant> ...]`), not its words.
    static func problems(in help: String, width: Int) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var problems: [String] = []
        for (number, line) in lines.enumerated() where line.count > width {
            problems.append("line \(number + 1) is \(line.count) columns, over \(width): \(line)")
        }
        var inUsage = false
        for number in lines.indices.dropFirst() {
            let previous = lines[number - 1]
            let line = lines[number]
            if previous.hasPrefix("USAGE: ") { inUsage = true }
            if line.isEmpty { inUsage = false }
            let words = inUsage ? HelpUsageElements.split(line) : line.split(separator: " ").map(String.init)
            guard !previous.isEmpty, let next = words.first,
                  inUsage || textColumn(of: previous) == leadingSpaces(line) else { continue }
            // The wrapper cuts a chunk of `width` characters at its last space: a word that ends
            // before the chunk's last column would have stayed on the line.
            guard previous.count + 1 + next.count <= width - 1 else { continue }
            if let last = previous.last, ".:;!?".contains(last), next.first?.isUppercase == true { continue }
            problems.append("line \(number) ends before \"\(next)\", which fits on it: \(previous)")
        }
        return problems
    }

    /// Where a line's text starts: after its indentation, or, in a row of OPTIONS or SUBCOMMANDS,
    /// after the label and the spaces that pad it to the help column.
    static func textColumn(of line: String) -> Int {
        let indent = leadingSpaces(line)
        let text = Array(line)
        var index = indent
        while index < text.count {
            if text[index] == " ", index + 1 < text.count, text[index + 1] == " " {
                var end = index
                while end < text.count, text[end] == " " { end += 1 }
                return end < text.count ? end : indent
            }
            index += 1
        }
        return indent
    }

    static func leadingSpaces(_ line: String) -> Int { line.prefix { $0 == " " }.count }
}

/// The elements of a usage synopsis: split at the spaces outside brackets, `--` kept with what
/// follows it.
enum HelpUsageElements {
    static func split(_ line: String) -> [String] {
        var elements: [String] = []
        var current = ""
        var depth = 0
        for character in line {
            if character == "[" || character == "<" { depth += 1 }
            if character == "]" || character == ">" { depth -= 1 }
            if character == " ", depth == 0, !current.isEmpty, current != "--" {
                elements.append(current)
                current = ""
            } else if character != " " || !current.isEmpty {
                current.append(character)
            }
        }
        if !current.isEmpty { elements.append(current) }
        return elements
    }
}
