import Glibc
import HybridHost

/// Reads one line at a time from a terminal in raw mode (``RawTerminal``), with node's REPL keys:
/// Left/Right, Home/End (and Ctrl-A/Ctrl-E), Backspace, Delete, Ctrl-U/Ctrl-K, Up/Down through
/// ``ReplHistory``; Enter ends the line, Ctrl-C cancels it, Ctrl-D on an empty line ends input.
/// A character is taken to be one column wide (wide characters are drawn as if they were).
final class LineEditor {
    enum Event: Equatable {
        case line(String)
        /// Ctrl-C; `hadText` when the line was not empty.
        case interrupt(hadText: Bool)
        case end
    }

    private let console: ReplConsole
    private let history: ReplHistory
    /// Bytes typed while an input was being evaluated, read before the terminal.
    private var pending: [UInt8] = []

    init(console: ReplConsole, history: ReplHistory) {
        self.console = console
        self.history = history
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

    func read(prompt: String) -> Event {
        var line = ReplConsole.Line(prompt: prompt, text: [], cursor: 0)
        // Up and Down walk the history; the line being typed is kept as the entry after the newest.
        var entry = history.entries.count
        var draft: [Character] = []
        console.draw(line)
        while let byte = nextByte() {
            switch byte {
            case 0x0D, 0x0A:
                console.finishLine("\n")
                return .line(String(line.text))
            case 0x03:
                console.finishLine("^C\n")
                return .interrupt(hadText: !line.text.isEmpty)
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
                    guard entry > 0 else { break }
                    if entry == history.entries.count { draft = line.text }
                    entry -= 1
                    line.text = Array(history.entries[entry])
                    line.cursor = line.text.count
                case "[B", "OB":
                    guard entry < history.entries.count else { break }
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
                break   // other control keys, Tab (no completion) and stray bytes
            }
            console.draw(line)
        }
        console.finishLine("\n")
        return .end
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
