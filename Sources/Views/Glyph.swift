import CUTF8Proc

/// One grapheme cluster and the cells it takes: 2 for East Asian wide characters and emoji, 1 for
/// most others, 0 for combining marks on their own and control characters. utf8proc finds the
/// clusters; the widths follow `CellWidthTable`.
public struct Glyph: Sendable, Hashable {
    public var text: String
    public var width: Int

    public init(_ text: String, width: Int) {
        self.text = text
        self.width = width
    }

    static let space = Glyph(" ", width: 1)
    static let ellipsis = Glyph("…", width: 1)

    /// Splits `text` into grapheme clusters (utf8proc's extended grapheme rules) with their widths.
    /// Tabs become one space; other control characters are dropped.
    public static func segment(_ text: Substring) -> [Glyph] {
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(text.utf8.count)
        // ASCII fast path: one byte, one glyph, one cell.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            for byte in text.utf8 { glyphs.append(Glyph(String(UnicodeScalar(byte)), width: 1)) }
            return glyphs
        }
        var state: utf8proc_int32_t = 0
        var previous: Int32 = -1
        var cluster = String.UnicodeScalarView()
        func flush() {
            guard !cluster.isEmpty else { return }
            glyphs.append(Glyph(String(cluster), width: clusterWidth(cluster)))
            cluster = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            let c = Int32(bitPattern: scalar.value)
            if scalar == "\t" {
                flush(); glyphs.append(.space); previous = -1; state = 0; continue
            }
            if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) {
                flush(); previous = -1; state = 0; continue
            }
            if previous >= 0, utf8proc_grapheme_break_stateful(previous, c, &state) { flush() }
            cluster.append(scalar)
            previous = c
        }
        flush()
        return glyphs
    }

    public static func segment(_ text: String) -> [Glyph] { segment(text[...]) }

    /// Width of a cluster: that of its first non-zero-width scalar, or 2 when U+FE0F asks for
    /// emoji presentation of a base that has one (`❤️`; a lone U+FE0F takes no cells). Widths come from
    /// `CellWidthTable` (the newest Unicode), not utf8proc's older tables.
    static func clusterWidth(_ scalars: String.UnicodeScalarView) -> Int {
        var width = 0
        var base: UInt32?
        for scalar in scalars {
            // A regional-indicator pair is a flag.
            if (0x1F1E6...0x1F1FF).contains(scalar.value) { return 2 }
            if scalar.value == 0xFE0F, let base, contains(CellWidthTable.emojiVariation, base) { return 2 }
            if base == nil { base = scalar.value }
            if width == 0 { width = cellWidth(scalar.value) }
        }
        return width
    }

    /// Cells one code point takes on its own: 2 wide, 0 zero-width, else 1.
    static func cellWidth(_ value: UInt32) -> Int {
        if value < 0x300 { return 1 }  // Latin: nothing wide or zero-width before the combining marks
        if contains(CellWidthTable.wide, value) { return 2 }
        if contains(CellWidthTable.zero, value) { return 0 }
        return 1
    }

    static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var low = 0, high = ranges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if value < ranges[mid].lowerBound { high = mid - 1 } else if value > ranges[mid].upperBound { low = mid + 1 } else { return true }
        }
        return false
    }

    /// Cells `text` takes on one line.
    public static func width(of text: String) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return segment(text).reduce(0) { $0 + $1.width }
    }

    /// Whether a line may break before or after this glyph without a space: CJK and other wide
    /// characters.
    var breaksFreely: Bool { width == 2 }
    var isSpace: Bool { text == " " }

    /// A symbol or emoji, not a letter, digit or punctuation: `⏎`, `→`, `✅`.
    var isSymbol: Bool {
        guard let scalar = text.unicodeScalars.first, scalar.value >= 0x80 else { return false }
        switch scalar.properties.generalCategory {
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol: return true
        default: return false
        }
    }
}
