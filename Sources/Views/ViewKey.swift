/// The keys the interactive mode understands, from raw terminal input or `view.simulate`.
public enum ViewKey: String, Sendable, CaseIterable {
    case tab, shiftTab = "shift-tab", enter, space, quit = "q"

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
                if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "["), bytes[i + 2] == UInt8(ascii: "Z") {
                    keys.append(.shiftTab)
                    i += 2
                } else if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                    i += 2   // other CSI keys (arrows): ignored
                }
            default: break
            }
            i += 1
        }
        return keys
    }
}
