import Glibc

/// The terminal the host writes to: its size in cells and how many colours it shows.
///
/// Size: the window size of standard output (`TIOCGWINSZ`), else `COLUMNS` and `LINES`, else 80×24.
///
/// Colours, the first rule that applies:
/// 1. 0 when `NO_COLOR` is set and not empty (no-color.org), when `TERM` is `dumb`, or when
///    standard output is not a terminal and `TERM` is unset or empty.
/// 2. 16777216 when `COLORTERM` is `truecolor` or `24bit`, or `TERM` ends in `-direct`.
/// 3. 256 when `TERM` contains `256color`.
/// 4. 8 when `TERM` is `linux`: the Linux console has eight colours (bold brightens them).
/// 5. 16 otherwise.
struct TerminalScreen: Sendable, Equatable {
    var columns: Int
    var rows: Int
    var colors: Int

    /// Measures standard output now.
    static func current(environment: (String) -> String?) -> TerminalScreen {
        let isTerminal = isatty(STDOUT_FILENO) == 1
        var size = winsize()
        let measured = isTerminal && ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0
        return resolve(
            windowSize: measured ? (columns: Int(size.ws_col), rows: Int(size.ws_row)) : nil,
            isTerminal: isTerminal,
            environment: environment
        )
    }

    /// The screen from what was measured: the pure half of ``current(environment:)``.
    static func resolve(
        windowSize: (columns: Int, rows: Int)?,
        isTerminal: Bool,
        environment: (String) -> String?
    ) -> TerminalScreen {
        func positive(_ name: String) -> Int? {
            environment(name).flatMap { Int($0.trimmingWhiteSpace()) }.flatMap { $0 > 0 ? $0 : nil }
        }
        // A pseudo-terminal nobody sized reports 0×0: treat it as unmeasured.
        let window = windowSize.flatMap { $0.columns > 0 && $0.rows > 0 ? $0 : nil }
        return TerminalScreen(
            columns: window?.columns ?? positive("COLUMNS") ?? 80,
            rows: window?.rows ?? positive("LINES") ?? 24,
            colors: colorCount(isTerminal: isTerminal, environment: environment)
        )
    }

    static func colorCount(isTerminal: Bool, environment: (String) -> String?) -> Int {
        let term = environment("TERM") ?? ""
        if let noColor = environment("NO_COLOR"), !noColor.isEmpty { return 0 }
        if term == "dumb" || (term.isEmpty && !isTerminal) { return 0 }
        let colorTerm = (environment("COLORTERM") ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") { return 16_777_216 }
        if term.contains("256color") { return 256 }
        if term == "linux" { return 8 }
        return 16
    }
}
