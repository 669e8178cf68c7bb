/// A color as a view names it: one of the 16 ANSI names, a 256-color index, or `#rrggbb`.
public enum TerminalColor: Sendable, Hashable {
    /// 0–15: black, red, green, yellow, blue, magenta, cyan, white, then their bright variants.
    case ansi(UInt8)
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    static let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
                        "gray", "brightRed", "brightGreen", "brightYellow", "brightBlue", "brightMagenta",
                        "brightCyan", "brightWhite"]
    static let aliases: [String: UInt8] = ["grey": 8, "brightBlack": 8]

    /// Parses `"red"`, `"#ff8800"`, `"#f80"` or a number 0–255.
    static func parse(_ value: JSONValueRef) -> TerminalColor? {
        switch value {
        case .number(let n):
            guard n == n.rounded(), n >= 0, n <= 255 else { return nil }
            return .indexed(UInt8(n))
        case .string(let s):
            if let index = names.firstIndex(of: s) { return .ansi(UInt8(index)) }
            if let index = aliases[s] { return .ansi(index) }
            guard s.first == "#" else { return nil }
            var hex = Array(s.utf8.dropFirst())
            if hex.count == 3 { hex = hex.flatMap { [$0, $0] } }
            guard hex.count == 6 else { return nil }
            var v: [UInt8] = []
            for i in stride(from: 0, to: 6, by: 2) {
                guard let hi = hexDigit(hex[i]), let lo = hexDigit(hex[i + 1]) else { return nil }
                v.append(hi << 4 | lo)
            }
            return .rgb(v[0], v[1], v[2])
        }
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The standard xterm palette, as RGB: for downsampling and nearest-color matches.
    static func rgbOf(index: Int) -> (Int, Int, Int) {
        let base16: [(Int, Int, Int)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        if index < 16 { return base16[index] }
        if index < 232 {
            let i = index - 16
            let level = [0, 95, 135, 175, 215, 255]
            return (level[i / 36], level[(i / 6) % 6], level[i % 6])
        }
        let gray = 8 + (index - 232) * 10
        return (gray, gray, gray)
    }

    var rgbComponents: (Int, Int, Int) {
        switch self {
        case .ansi(let i): Self.rgbOf(index: Int(i))
        case .indexed(let i): Self.rgbOf(index: Int(i))
        case .rgb(let r, let g, let b): (Int(r), Int(g), Int(b))
        }
    }

    /// This color as the terminal can show it under `mode`; nil when it shows no color.
    public func downsampled(to mode: ColorMode) -> TerminalColor? {
        switch (mode, self) {
        case (.none, _): return nil
        case (.truecolor, _), (.palette256, .ansi), (.palette256, .indexed), (.ansi16, .ansi): return self
        case (.palette256, .rgb): return .indexed(UInt8(Self.nearest(rgbComponents, in: 16..<256)))
        case (.ansi16, _): return .ansi(UInt8(Self.nearest(rgbComponents, in: 0..<16)))
        }
    }

    private static func nearest(_ c: (Int, Int, Int), in range: Range<Int>) -> Int {
        var best = range.lowerBound, bestDistance = Int.max
        for i in range {
            let p = rgbOf(index: i)
            let d = (p.0 - c.0) * (p.0 - c.0) * 3 + (p.1 - c.1) * (p.1 - c.1) * 4 + (p.2 - c.2) * (p.2 - c.2) * 2
            if d < bestDistance { bestDistance = d; best = i }
        }
        return best
    }

    /// SGR parameters for this color as foreground (or background).
    func sgr(background: Bool) -> String {
        switch self {
        case .ansi(let i):
            let base = i < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
            return String(base + Int(i % 8))
        case .indexed(let i): return (background ? "48;5;" : "38;5;") + String(i)
        case .rgb(let r, let g, let b): return (background ? "48;2;" : "38;2;") + "\(r);\(g);\(b)"
        }
    }

    /// How a golden file shows it.
    var label: String {
        switch self {
        case .ansi(let i): Self.names[Int(i)]
        case .indexed(let i): String(i)
        case .rgb(let r, let g, let b): "#" + [r, g, b].map { hex2($0) }.joined()
        }
    }

    private func hex2(_ v: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(v >> 4)], digits[Int(v & 15)]])
    }
}

/// The two JSON shapes a color may take, so parsing does not depend on the whole JSONValue.
enum JSONValueRef {
    case number(Double)
    case string(String)
}
