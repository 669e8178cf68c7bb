import Glibc
import Synchronization
import SystemIO

/// Where everything `hybrid repl` prints goes: console output from the JS thread, results from the
/// thread that reads the terminal. While a line is being edited, what the app prints meanwhile (a
/// timer's `console.log`) goes above it, as node's REPL does: the line is cleared, the text
/// written, and the prompt and the line drawn again. A line longer than the terminal is wide
/// wraps, and is drawn again from its first row; a character is taken to be one column wide.
final class ReplConsole: Sendable {
    /// The line being edited, when there is one on the screen.
    struct Line {
        var prompt: String
        var text: [Character]
        var cursor: Int
    }

    private struct Screen {
        var line: Line?
        /// Rows between the line's first row and the cursor, as last drawn (a line longer than
        /// the terminal is wide wraps).
        var cursorRow = 0
        /// Rows between the line's first row and its last.
        var lastRow = 0
    }

    private let screen = Mutex(Screen())

    /// Writes `text` to `fd` (1 or 2), above the line being edited if there is one. Any thread.
    func write(_ text: String, to fd: Int32) {
        screen.withLock { screen in
            guard let current = screen.line else {
                emit(text, to: fd)
                return
            }
            emit(Self.up(screen.cursorRow) + "\r\u{1B}[J", to: 1)
            emit(text.hasSuffix("\n") ? text : text + "\n", to: fd)
            emit(Self.drawing(current, in: &screen), to: 1)
        }
    }

    /// Draws `current` in place of the line on screen (the reading thread, while editing).
    func draw(_ current: Line) {
        screen.withLock { screen in
            let clear = screen.line == nil ? "\r\u{1B}[J" : Self.up(screen.cursorRow) + "\r\u{1B}[J"
            screen.line = current
            emit(clear + Self.drawing(current, in: &screen), to: 1)
        }
    }

    /// The line is done (Enter, Ctrl-C): output goes where it falls again. `after` is written
    /// first, from the line's end.
    func finishLine(_ after: String) {
        screen.withLock { screen in
            let down = screen.lastRow - screen.cursorRow
            emit((down > 0 ? "\u{1B}[\(down)B" : "") + after, to: 1)
            screen = Screen()
        }
    }

    /// The prompt and the text, then the cursor moved back to its place; records the rows.
    private static func drawing(_ line: Line, in screen: inout Screen) -> String {
        let width = max(1, terminalWidth())
        let promptWidth = line.prompt.count
        let end = promptWidth + line.text.count
        var out = line.prompt + String(line.text)
        // At the right margin the terminal waits to wrap: move to the next row now, so that
        // positions below are true.
        if end > 0 && end % width == 0 { out += "\n" }
        let lastRow = end / width
        let position = promptWidth + line.cursor
        let row = position / width
        out += (lastRow > row ? "\u{1B}[\(lastRow - row)A" : "") + "\r" + (position % width > 0 ? "\u{1B}[\(position % width)C" : "")
        screen.cursorRow = row
        screen.lastRow = lastRow
        return out
    }

    private static func up(_ rows: Int) -> String { rows > 0 ? "\u{1B}[\(rows)A" : "" }

    /// Columns of the terminal on stdout (80 when it does not say).
    static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    private func emit(_ text: String, to fd: Int32) {
        StandardStreams.write(text, to: fd)
    }
}
