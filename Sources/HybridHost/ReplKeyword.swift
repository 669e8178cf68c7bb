/// A line of `hybrid repl` that names one of node's REPL commands: `.break`, `.clear`, `.editor`,
/// `.exit`, `.help`, `.load FILE`, `.save FILE`. Read as node reads them (lib/repl.js): the line,
/// trimmed, starts with one dot and is not a number (`.5`); a name the REPL does not know is
/// "Invalid REPL keyword" unless an input is being continued, where `.map(f)` goes on a chain.
/// `.editor` exists only at a terminal, as in node.
public enum ReplKeyword: Equatable, Sendable {
    /// `.break` and `.clear`: the input being continued is dropped.
    case `break`
    /// `.editor`: lines are collected until Ctrl-D, then evaluated as one input.
    case editor
    case exit
    case help
    /// `.load FILE`: the file's text, evaluated as one input.
    case load(String)
    /// `.save FILE`: the lines typed so far, written to FILE.
    case save(String)
    /// A name that is none of the above, outside an input being continued.
    case invalid

    /// The commands, in `.help`'s order, with node's help texts.
    public static func commands(terminal: Bool) -> [(name: String, help: String)] {
        [
            ("break", "Sometimes you get stuck, this gets you out"),
            ("clear", "Alias for .break"),
        ] + (terminal ? [("editor", "Enter editor mode")] : []) + [
            ("exit", "Exit the REPL"),
            ("help", "Print this help message"),
            ("load", "Load JS from a file into the REPL session"),
            ("save", "Save all evaluated commands in this REPL session to a file"),
        ]
    }

    /// What `.help` prints: the commands, their help aligned, then the keys.
    public static func help(terminal: Bool) -> String {
        let commands = commands(terminal: terminal)
        let width = commands.map(\.name.count).max() ?? 0
        let lines = commands.map { "." + $0.name + String(repeating: " ", count: width - $0.name.count + 3) + $0.help + "\n" }
        return lines.joined() + "\nPress Ctrl+C to abort current expression, Ctrl+D to exit the REPL\n"
    }

    /// The command `line` names, or nil when it is JavaScript. `collecting`: an unfinished input
    /// is being continued, and a name no command has is then part of it.
    public static func parse(_ line: String, collecting: Bool, terminal: Bool) -> ReplKeyword? {
        let trimmed = line.trimmingBlanks
        guard trimmed.first == ".", trimmed.dropFirst().first.map({ $0 != "." && !$0.isASCIIDigit }) == true else { return nil }
        let body = trimmed.dropFirst()
        let name = String(body.prefix { !$0.isWhitespace })
        let rest = String(body.dropFirst(name.count).trimmingBlanks)
        switch name {
        case "break", "clear": return .break
        case "editor" where terminal: return .editor
        case "exit": return .exit
        case "help": return .help
        case "load": return .load(rest)
        case "save": return .save(rest)
        default: return collecting ? nil : .invalid
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

private extension StringProtocol {
    var trimmingBlanks: SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}
