/// The keys the interactive mode understands, from raw terminal input or `view.simulate`.
public enum ViewKey: String, Sendable, CaseIterable {
    case tab, shiftTab = "shift-tab", enter, space, quit = "q"
    /// Scrolling keys: they act on the scroll container that has focus or holds it.
    case up, down, pageUp = "page-up", pageDown = "page-down", home, end

    /// Reads keys from a chunk of raw input bytes.
    static func parse(_ bytes: [UInt8]) -> [ViewKey] {
        var keys: [ViewKey] = []
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case 0x09: keys.append(.tab)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x20: keys.append(.space)
            case UInt8(ascii: "q"), 0x03, 0x04: keys.append(.quit)
            case 0x1B:
                if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                    // CSI or SS3: parameters, then a final byte (`ESC [ 5 ~`, `ESC [ A`, `ESC O H`).
                    var end = i + 2
                    while end < bytes.count - 1, (0x30...0x3F).contains(bytes[end]) { end += 1 }
                    let parameter = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
                    switch (bytes[end], parameter) {
                    case (UInt8(ascii: "Z"), _): keys.append(.shiftTab)
                    case (UInt8(ascii: "A"), _): keys.append(.up)
                    case (UInt8(ascii: "B"), _): keys.append(.down)
                    case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): keys.append(.home)
                    case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): keys.append(.end)
                    case (UInt8(ascii: "~"), "5"): keys.append(.pageUp)
                    case (UInt8(ascii: "~"), "6"): keys.append(.pageDown)
                    default: break   // other keys: ignored
                    }
                    i = end
                }
            default: break
            }
            i += 1
        }
        return keys
    }
}
