import Glibc
import HybridHost

/// Reads one line at a time from a terminal in raw mode (``RawTerminal``), with node's REPL keys:
/// Left/Right, Home/End (and Ctrl-A/Ctrl-E), Backspace, Delete, Ctrl-U/Ctrl-K, Up/Down through
/// ``ReplHistory``, Tab to complete; Enter ends the line, Ctrl-C cancels it, Ctrl-D on an empty
/// line ends input. A character is taken to be one column wide (wide characters are drawn as if
/// they were).
///
/// Tab is node's readline's: the completions' common prefix, when longer than what was typed,
/// is put in place of it (one completion: the whole name); otherwise a second Tab in a row lists
/// them in columns below the line, which is then drawn again.
final class LineEditor {
    enum Event: Equatable {
        case line(String)
        /// Ctrl-C; `hadText` when the line was not empty.
        case interrupt(hadText: Bool)
        case end
        /// Ctrl-D in editor mode: the block ends with this line.
        case finish(String)
    }

    private let console: ReplConsole
    private let history: ReplHistory
    /// Tab's answer for the text before the cursor; nil or no completions: Tab does nothing.
    private let complete: (String) -> ReplSession.Completion?
    /// Bytes typed while an input was being evaluated, read before the terminal.
    private var pending: [UInt8] = []

    init(console: ReplConsole, history: ReplHistory, complete: @escaping (String) -> ReplSession.Completion? = { _ in nil }) {
        self.console = console
        self.history = history
        self.complete = complete
    }

    /// Keeps what was typed while waiting for a result; true when it holds Ctrl-C (the wait
    /// ends, and everything typed with it is dropped).
    func typedAhead(_ bytes: [UInt8]) -> Bool {
        if bytes.contains(0x03) {
            pending.removeAll()
            return true
        }
        pending += bytes
        return false
    }

    /// Reads a line after `prompt`, starting as `text`. In `editorMode` (`.editor`: lines of one
    /// block) Ctrl-D ends the block whatever the line holds, Up and Down do nothing, and Tab
    /// completes but never lists (as in node).
    func read(prompt: String, text: String = "", editorMode: Bool = false) -> Event {
        var line = ReplConsole.Line(prompt: prompt, text: Array(text), cursor: text.count)
        // Up and Down walk the history; the line being typed is kept as the entry after the newest.
        var entry = history.entries.count
        var draft: [Character] = []
        var previousWasTab = false
        console.draw(line)
        while let byte = nextByte() {
            defer { previousWasTab = byte == 0x09 }
            switch byte {
            case 0x0D, 0x0A:
                console.finishLine("\n")
                return .line(String(line.text))
            case 0x03:
                console.finishLine("^C\n")
                return .interrupt(hadText: !line.text.isEmpty)
            case 0x04 where editorMode:
                console.finishLine("\n")
                return .finish(String(line.text))
            case 0x09:
                tabComplete(&line, listing: previousWasTab && !editorMode)
            case 0x04:
                if line.text.isEmpty {
                    console.finishLine("\n")
                    return .end
                }
                if line.cursor < line.text.count { line.text.remove(at: line.cursor) }
            case 0x7F, 0x08:
                if line.cursor > 0 {
                    line.text.remove(at: line.cursor - 1)
                    line.cursor -= 1
                }
            case 0x01: line.cursor = 0
            case 0x05: line.cursor = line.text.count
            case 0x02: line.cursor = max(0, line.cursor - 1)
            case 0x06: line.cursor = min(line.text.count, line.cursor + 1)
            case 0x0B: line.text.removeSubrange(line.cursor...)
            case 0x15:
                line.text.removeSubrange(..<line.cursor)
                line.cursor = 0
            case 0x1B:
                switch escapeSequence() {
                case "[D", "OD": line.cursor = max(0, line.cursor - 1)
                case "[C", "OC": line.cursor = min(line.text.count, line.cursor + 1)
                case "[H", "OH", "[1~", "[7~": line.cursor = 0
                case "[F", "OF", "[4~", "[8~": line.cursor = line.text.count
                case "[3~":
                    if line.cursor < line.text.count { line.text.remove(at: line.cursor) }
                case "[A", "OA":
                    guard entry > 0, !editorMode else { break }
                    if entry == history.entries.count { draft = line.text }
                    entry -= 1
                    line.text = Array(history.entries[entry])
                    line.cursor = line.text.count
                case "[B", "OB":
                    guard entry < history.entries.count, !editorMode else { break }
                    entry += 1
                    line.text = entry == history.entries.count ? draft : Array(history.entries[entry])
                    line.cursor = line.text.count
                default: break
                }
            case 0x20...0x7E, 0xC0...0xFF:
                let character = Character(decodingCharacter(startingWith: byte))
                line.text.insert(character, at: line.cursor)
                line.cursor += 1
            default:
                break   // other control keys and stray bytes
            }
            console.draw(line)
        }
        console.finishLine("\n")
        return .end
    }

    /// Tab, as node's readline handles it (`kTabCompleter`).
    private func tabComplete(_ line: inout ReplConsole.Line, listing: Bool) {
        guard let answer = complete(String(line.text[..<line.cursor])), !answer.completions.isEmpty else { return }
        let completeOn = Array(answer.completeOn)
        let prefix = Self.commonPrefix(answer.completions.filter { !$0.isEmpty })
        if prefix.starts(with: completeOn) && prefix.count > completeOn.count {
            line.text.insert(contentsOf: prefix.dropFirst(completeOn.count), at: line.cursor)
            line.cursor += prefix.count - completeOn.count
        } else if !completeOn.starts(with: prefix), completeOn.count <= line.cursor {
            // What was typed differs in case only (`jso` → `JSON`): it is replaced.
            line.text.replaceSubrange((line.cursor - completeOn.count)..<line.cursor, with: prefix)
            line.cursor += prefix.count - completeOn.count
        } else if listing {
            console.finishLine("\n" + Self.columns(answer.completions, width: ReplConsole.terminalWidth()))
        }
    }

    /// The longest start all of `names` share (node's `commonPrefix`).
    static func commonPrefix(_ names: [String]) -> [Character] {
        guard let first = names.min().map(Array.init), let last = names.max().map(Array.init) else { return [] }
        return Array(zip(first, last).prefix { $0 == $1 }.map(\.0))
    }

    /// Completions in columns as wide as the widest and two more, as many as fit in `width`; a
    /// new row after each "" (between groups), and a blank line after the last row.
    static func columns(_ completions: [String], width: Int) -> String {
        let widths = completions.map(\.count)
        let column = (widths.max() ?? 0) + 2
        let perRow = max(1, width / column)
        var out = ""
        var inRow = 0
        var padding = 0
        for (completion, completionWidth) in zip(completions, widths) {
            if completion.isEmpty || inRow == perRow {
                out += "\n"
                inRow = 0
                padding = 0
            } else {
                out += String(repeating: " ", count: padding)
            }
            if completion.isEmpty {
                out += "\n"
            } else {
                out += completion
                padding = column - completionWidth
                inRow += 1
            }
        }
        if inRow != 0 { out += "\n\n" }
        return out
    }

    /// The rest of an escape sequence after ESC: `[A`, `OH`, `[3~`, ...
    private func escapeSequence() -> String {
        guard let first = nextByte() else { return "" }
        var sequence = String(UnicodeScalar(first))
        guard first == UInt8(ascii: "[") || first == UInt8(ascii: "O") else { return sequence }
        while let byte = nextByte() {
            sequence.append(Character(UnicodeScalar(byte)))
            if (0x40...0x7E).contains(byte) { break }
        }
        return sequence
    }

    /// A UTF-8 character from its first byte and the continuation bytes that follow.
    private func decodingCharacter(startingWith first: UInt8) -> String {
        var bytes = [first]
        let count = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : first >= 0xC0 ? 1 : 0
        for _ in 0..<count {
            guard let next = nextByte() else { break }
            bytes.append(next)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func nextByte() -> UInt8? {
        if !pending.isEmpty { return pending.removeFirst() }
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
