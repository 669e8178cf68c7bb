/// Turns raw terminal bytes into ``TerminalInput``s. It keeps what a read cut short (half an
/// escape sequence, half a UTF-8 character, a paste not yet ended) for the next read.
struct TerminalInputParser {
    private var pending: [UInt8] = []
    static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    mutating func feed(_ chunk: [UInt8]) -> [TerminalInput] {
        let bytes = pending + chunk
        pending = []
        var out: [TerminalInput] = []
        var text: [UInt8] = []
        func flushText() {
            if !text.isEmpty { out.append(.text(String(decoding: text, as: UTF8.self))) }
            text = []
        }
        func emit(_ key: ViewKey) { flushText(); out.append(.key(key)) }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x09: emit(.tab)
            case 0x0D, 0x0A: emit(.enter)
            case 0x7F, 0x08: emit(.backspace)
            case 0x03, 0x04: emit(.quit)
            case 0x01: emit(.home)    // Ctrl-A
            case 0x05: emit(.end)     // Ctrl-E
            case 0x1B:
                guard i + 1 < bytes.count else {
                    // A lone Escape at the end of a read: a sequence cut short, or the Escape key,
                    // which does nothing. Keep it only when more bytes are likely to follow.
                    if chunk.count > 1 { pending = [0x1B] }
                    i += 1
                    continue
                }
                let next = bytes[i + 1]
                if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                    // CSI or SS3: parameters, then a final byte (`ESC [ 5 ~`, `ESC [ 1 ; 5 D`, `ESC O H`).
                    var end = i + 2
                    while end < bytes.count, (0x30...0x3F).contains(bytes[end]) { end += 1 }
                    guard end < bytes.count else { pending = Array(bytes[i...]); i = bytes.count; continue }
                    let parameter = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
                    if bytes[end] == UInt8(ascii: "~"), parameter == "200" {
                        flushText()
                        guard let close = Self.find(Self.pasteEnd, in: bytes, from: end + 1) else {
                            pending = Array(bytes[i...])
                            i = bytes.count
                            continue
                        }
                        out.append(.paste(String(decoding: bytes[(end + 1)..<close], as: UTF8.self)))
                        i = close + Self.pasteEnd.count
                        continue
                    }
                    if let report = Self.mouse(final: bytes[end], parameter) {
                        flushText()
                        out.append(.mouse(report))
                    } else if let key = Self.key(final: bytes[end], parameter) {
                        emit(key)
                    }
                    i = end + 1
                    continue
                }
                // Alt-b and Alt-f (Escape before the letter) jump words, as in a shell.
                if next == UInt8(ascii: "b") { emit(.wordLeft) } else if next == UInt8(ascii: "f") { emit(.wordRight) } else if next == 0x7F { emit(.backspace) }
                i += 2
                continue
            default:
                if byte >= 0x20 {
                    // A UTF-8 character cut by the end of the read waits for its other bytes.
                    if byte >= 0xC0 {
                        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                        if i + length > bytes.count {
                            pending = Array(bytes[i...])
                            i = bytes.count
                            continue
                        }
                    }
                    text.append(byte)
                }
            }
            i += 1
        }
        flushText()
        return out
    }

    static func key(final: UInt8, _ parameter: String) -> ViewKey? {
        // `1;5` is Ctrl, `1;3` Alt: both jump words with the arrows.
        let modified = parameter.hasSuffix(";5") || parameter.hasSuffix(";3")
        switch (final, parameter) {
        case (UInt8(ascii: "Z"), _): return .shiftTab
        case (UInt8(ascii: "A"), _): return .up
        case (UInt8(ascii: "B"), _): return .down
        case (UInt8(ascii: "C"), _): return modified ? .wordRight : .right
        case (UInt8(ascii: "D"), _): return modified ? .wordLeft : .left
        case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .home
        case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .end
        case (UInt8(ascii: "~"), "3"): return .delete
        case (UInt8(ascii: "~"), "5"): return .pageUp
        case (UInt8(ascii: "~"), "6"): return .pageDown
        default: return nil   // other keys: ignored
        }
    }

    /// `ESC [ < b ; x ; y M` (press) or `m` (release); x and y count from 1.
    static func mouse(final: UInt8, _ parameter: String) -> MouseReport? {
        guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m"), parameter.hasPrefix("<") else { return nil }
        let fields = parameter.dropFirst().split(separator: ";").compactMap { Int($0) }
        guard fields.count == 3 else { return nil }
        let button = fields[0]
        let action: MouseReport.Action
        if button & 64 != 0 {
            action = button & 1 == 0 ? .wheelUp : .wheelDown
        } else if button & 32 != 0 || button & 3 != 0 {
            action = .other   // motion, or the middle or right button
        } else {
            action = final == UInt8(ascii: "M") ? .press : .release
        }
        return MouseReport(action: action, x: fields[1] - 1, y: fields[2] - 1)
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle { return i }
        return nil
    }
}
