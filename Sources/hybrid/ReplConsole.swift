import Synchronization
import SystemIO

/// Where everything `hybrid repl` prints goes: console output from the JS thread, results from the
/// thread that reads the terminal. While a line is being edited, what the app prints meanwhile (a
/// timer's `console.log`) goes above it, as node's REPL does: the line is cleared, the text
/// written, and the prompt and the line drawn again.
final class ReplConsole: Sendable {
    /// The line being edited, when there is one on the screen.
    struct Line {
        var prompt: String
        var text: [Character]
        var cursor: Int
    }

    private let line = Mutex<Line?>(nil)

    /// Writes `text` to `fd` (1 or 2), above the line being edited if there is one. Any thread.
    func write(_ text: String, to fd: Int32) {
        line.withLock { line in
            guard let current = line else {
                emit(text, to: fd)
                return
            }
            emit("\r\u{1B}[K", to: 1)
            emit(text.hasSuffix("\n") ? text : text + "\n", to: fd)
            emit(Self.drawing(current), to: 1)
        }
    }

    /// Draws `current` in place of the line on screen (the reading thread, while editing).
    func draw(_ current: Line) {
        line.withLock { line in
            line = current
            emit("\r\u{1B}[K" + Self.drawing(current), to: 1)
        }
    }

    /// The line is done (Enter, Ctrl-C): output goes where it falls again. `after` is written first.
    func finishLine(_ after: String) {
        line.withLock { line in
            line = nil
            emit(after, to: 1)
        }
    }

    private static func drawing(_ line: Line) -> String {
        let back = line.text.count - line.cursor
        return line.prompt + String(line.text) + (back > 0 ? "\u{1B}[\(back)D" : "")
    }

    private func emit(_ text: String, to fd: Int32) {
        StandardStreams.write(text, to: fd)
        StandardStreams.flush()
    }
}
