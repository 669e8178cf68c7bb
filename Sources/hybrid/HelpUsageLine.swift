import Glibc
import SystemIO

/// The `USAGE:` line of a help screen, wrapped at the terminal's width.
///
/// swift-argument-parser wraps every paragraph of a help screen at the terminal's width but prints
/// the usage synopsis on one line, which a terminal then cuts in the middle of a flag. This wraps
/// it between whole elements, continuing under the command's first argument:
///
/// ```
/// USAGE: hybrid run <path> [--watch] [--data-dir <data-dir>] [--grant <grant> ...]
///                   [--time-limit <time-limit>] -- [<arguments> ...]
/// ```
enum HelpUsageLine {
    /// The width help is rendered at, found as swift-argument-parser finds it: `COLUMNS`, else
    /// the terminal on stdout, else 80.
    static var terminalWidth: Int {
        if let columns = ProcessEnvironment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// `help` with its usage line wrapped to `width` columns; any other text as it is.
    static func wrapping(_ help: String, width: Int) -> String {
        var lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(where: { $0.hasPrefix(prefix) }), lines[index].count > width else { return help }
        lines[index] = wrapped(String(lines[index].dropFirst(prefix.count)), width: width)
        return lines.joined(separator: "\n")
    }

    private static let prefix = "USAGE: "

    /// `USAGE: ` and the synopsis, cut only between its elements (`<path>`, `[--grant <grant> ...]`,
    /// `-- [<arguments> ...]`), each line after the first starting under the first argument, or
    /// under the synopsis when the command's name is too long for that.
    static func wrapped(_ synopsis: String, width: Int) -> String {
        let elements = Self.elements(of: synopsis)
        let name = elements.prefix { $0.first.map { $0.isLetter } ?? false }
        let nameWidth = prefix.count + name.joined(separator: " ").count + 1
        let indent = width - nameWidth >= 30 ? nameWidth : prefix.count
        var lines: [String] = []
        var line = prefix + name.joined(separator: " ")
        for element in elements.dropFirst(name.count) {
            if line.count + 1 + element.count > width, line.count > indent {
                lines.append(line)
                line = String(repeating: " ", count: indent) + element
            } else {
                line += " " + element
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The synopsis split at the spaces outside brackets, `--` kept with what follows it.
    static func elements(of synopsis: String) -> [String] {
        var elements: [String] = []
        var current = ""
        var depth = 0
        for character in synopsis {
            switch character {
            case "[", "<": depth += 1
            case "]", ">": depth -= 1
            default: break
            }
            if character == " ", depth == 0 {
                if !current.isEmpty, current != "--" {
                    elements.append(current)
                    current = ""
                } else if current == "--" {
                    current += " "
                }
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { elements.append(current) }
        return elements
    }
}
