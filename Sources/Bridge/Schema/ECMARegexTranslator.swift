/// Rewrites an ECMA-262 regular expression (what JSON Schema's `pattern` is) into Swift `Regex`
/// syntax with the same meaning, or refuses it where ECMA-262 would.
///
/// The two syntaxes mostly agree; where they do not, ECMA-262's meaning is spelled out:
/// - `\d`, `\w` (and `\D`, `\W`) are ASCII (`[0-9]`, `[A-Za-z0-9_]`), where Swift's are Unicode;
///   `\b` is ASCII too, through the options ``SchemaPattern`` compiles with.
/// - `\s` is ECMA-262's set (Unicode spaces and line terminators, U+FEFF, not U+0085).
/// - `.` does not match the line terminators `\n`, `\r`, U+2028, U+2029; `$` matches only at the
///   very end (`\z`); `\v` is U+000B, not a class; `\cX`, `\xHH`, `\uHHHH` (surrogate pairs
///   joined), `\u{H…}` and `\0` are characters.
/// - Inside a class, `[` is a literal (Swift would nest a class), and `&&`, `--`, `~~` are not set
///   operations; `[]` matches nothing and `[^]` anything.
/// - Escapes ECMA-262 does not have (`\a`, `\A`, `\Z`, `\z`, `\h`, `\Q`, ...), inline flags
///   `(?i)`, Python's `(?P<name>)` and `(?#...)`, atomic groups and possessive quantifiers are
///   refused, as an ECMA-262 engine with the `u` flag refuses them.
///
/// What Swift's engine cannot do is refused too, by `Regex` itself: lookbehind (`(?<=a)b`).
enum ECMARegexTranslator {
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// ECMA-262's `\s`, each scalar spelled out: Swift's parser refuses the range U+2000–U+200A
    /// ("invalid bound for character class range").
    static let whitespace = #"\t\n\u{B}\f\r \u{A0}\u{1680}"# + (0x2000...0x200A).map { "\\u{\(String($0, radix: 16))}" }.joined()
        + #"\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}"#
    static let wordCharacters = "A-Za-z0-9_"

    static func translate(_ source: String) throws(Refusal) -> String {
        let scalars = Array(source.unicodeScalars)
        var out = ""
        var i = 0
        var inClass = false
        /// Whether the class's last member was an unescaped `-`: a second one would make Swift's
        /// `--` (set subtraction), so it is escaped. After an escaped `\-`, a `-` is a range.
        var afterClassDash = false
        /// What was just written: a quantifier may be followed by `?` (lazy) and nothing else that
        /// repeats; a lazy quantifier by nothing that repeats.
        var afterQuantifier = false
        var afterLazy = false

        func fail(_ message: String) -> Refusal { Refusal(description: message) }
        func peek(_ offset: Int = 0) -> Unicode.Scalar? { i + offset < scalars.count ? scalars[i + offset] : nil }

        while i < scalars.count {
            let c = scalars[i]
            if inClass {
                let wasClassDash = afterClassDash
                afterClassDash = false
                switch c {
                case "]":
                    inClass = false
                    out += "]"
                    i += 1
                case "\\":
                    out += try escape(&i, in: scalars, inClass: true)
                case "[", "&", "~":
                    out += "\\" + String(c)
                    i += 1
                case "-" where wasClassDash:
                    out += "\\-"
                    i += 1
                case "-":
                    afterClassDash = true
                    out += "-"
                    i += 1
                default:
                    out.unicodeScalars.append(c)
                    i += 1
                }
                continue
            }
            let wasQuantifier = afterQuantifier
            let wasLazy = afterLazy
            afterQuantifier = false
            afterLazy = false
            switch c {
            case "[":
                if peek(1) == "]" {
                    out += "(?!)"
                    i += 2
                } else if peek(1) == "^", peek(2) == "]" {
                    out += #"[\u{0}-\u{10FFFF}]"#
                    i += 3
                } else if peek(1) == "^" {
                    inClass = true
                    out += "[^"
                    i += 2
                } else {
                    inClass = true
                    out += "["
                    i += 1
                }
            case "\\":
                out += try escape(&i, in: scalars, inClass: false)
            case ".":
                out += #"[^\n\r\u{2028}\u{2029}]"#
                i += 1
            case "$":
                out += #"\z"#
                i += 1
            case "(":
                if peek(1) == "?" {
                    let next = peek(2)
                    if next == ":" || next == "=" || next == "!" {
                        out += "(?" + String(next!)
                        i += 3
                    } else if next == "<", let after = peek(3), after == "=" || after == "!" || after.properties.isAlphabetic || after == "_" || after == "$" {
                        out += "(?<"
                        i += 3
                    } else {
                        throw fail("(?\(next.map(String.init) ?? "") is not an ECMA-262 group (inline flags, Python's (?P and (?# comments are not)")
                    }
                } else {
                    out += "("
                    i += 1
                }
            case "*", "+", "?":
                if wasLazy || wasQuantifier && c != "?" {
                    throw fail("nothing to repeat before \(c) at offset \(i) (possessive quantifiers are not ECMA-262)")
                }
                if wasQuantifier {
                    out.unicodeScalars.append(c)
                    afterLazy = true
                    i += 1
                    continue
                }
                out.unicodeScalars.append(c)
                afterQuantifier = true
                i += 1
            case "{":
                // A quantifier {n}, {n,} or {n,m}; anything else is a literal brace.
                var j = i + 1
                while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == "," { j += 1 }
                if j < scalars.count, scalars[j] == "}", j > i + 1, ("0"..."9").contains(scalars[i + 1]) {
                    if wasQuantifier || wasLazy { throw fail("nothing to repeat before { at offset \(i)") }
                    out += String(String.UnicodeScalarView(scalars[i...j]))
                    afterQuantifier = true
                    i = j + 1
                } else {
                    out += "\\{"
                    i += 1
                }
            case "}":
                out += "\\}"
                i += 1
            default:
                out.unicodeScalars.append(c)
                i += 1
            }
        }
        if inClass { throw fail("unterminated character class") }
        return out
    }

    /// Translates the escape at `i` (a backslash) and moves past it.
    private static func escape(_ i: inout Int, in scalars: [Unicode.Scalar], inClass: Bool) throws(Refusal) -> String {
        guard i + 1 < scalars.count else { throw Refusal(description: "\\ at the end of the pattern") }
        let c = scalars[i + 1]
        i += 2
        switch c {
        case "d": return inClass ? "0-9" : "[0-9]"
        case "D": return "[^0-9]"
        case "w": return inClass ? wordCharacters : "[\(wordCharacters)]"
        case "W": return "[^\(wordCharacters)]"
        case "s": return inClass ? whitespace : "[\(whitespace)]"
        case "S": return "[^\(whitespace)]"
        case "b": return inClass ? #"\u{8}"# : #"\b"#
        case "B":
            guard !inClass else { throw Refusal(description: "\\B inside a character class is not ECMA-262") }
            return #"\B"#
        case "t", "n", "r", "f": return "\\" + String(c)
        case "v": return #"\u{B}"#
        case "0":
            if i < scalars.count, ("0"..."9").contains(scalars[i]) { throw Refusal(description: "octal escapes are not ECMA-262 (with the u flag)") }
            return #"\u{0}"#
        case "1"..."9":
            guard !inClass else { throw Refusal(description: "a backreference inside a character class is not ECMA-262") }
            var digits = String(c)
            while i < scalars.count, ("0"..."9").contains(scalars[i]) { digits.unicodeScalars.append(scalars[i]); i += 1 }
            return "\\" + digits
        case "k":
            guard !inClass, i < scalars.count, scalars[i] == "<" else { throw Refusal(description: "\\k must name a group: \\k<name>") }
            return "\\k"
        case "c":
            guard i < scalars.count, ("a"..."z").contains(scalars[i]) || ("A"..."Z").contains(scalars[i]) else {
                throw Refusal(description: "\\c must be followed by a letter")
            }
            let letter = scalars[i]
            i += 1
            return scalarEscape(letter.value % 32)
        case "x":
            guard let value = hex(scalars, &i, count: 2) else { throw Refusal(description: "\\x must be followed by two hex digits") }
            return scalarEscape(value)
        case "u":
            if i < scalars.count, scalars[i] == "{" {
                var j = i + 1
                var value: UInt32 = 0
                while j < scalars.count, let digit = hexDigit(scalars[j]) { value = value &* 16 &+ digit; j += 1 }
                guard j < scalars.count, scalars[j] == "}", j > i + 1, value <= 0x10FFFF else { throw Refusal(description: "\\u{...} must hold a code point in hex") }
                i = j + 1
                return scalarEscape(value)
            }
            guard let high = hex(scalars, &i, count: 4) else { throw Refusal(description: "\\u must be followed by four hex digits") }
            if (0xD800...0xDBFF).contains(high), i + 1 < scalars.count, scalars[i] == "\\", scalars[i + 1] == "u" {
                var j = i + 2
                if let low = hex(scalars, &j, count: 4), (0xDC00...0xDFFF).contains(low) {
                    i = j
                    return scalarEscape(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                }
            }
            guard !(0xD800...0xDFFF).contains(high) else { throw Refusal(description: "\\u\(String(high, radix: 16)) is half of a surrogate pair") }
            return scalarEscape(high)
        case "p", "P":
            guard i < scalars.count, scalars[i] == "{", let close = scalars[i...].firstIndex(of: "}") else {
                throw Refusal(description: "\\\(c) must be followed by {property}")
            }
            let property = String(String.UnicodeScalarView(scalars[i...close]))
            i = close + 1
            return "\\" + String(c) + property
        case "^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/":
            return "\\" + String(c)
        case "-" where inClass:
            return "\\-"
        default:
            throw Refusal(description: "\\\(c) is not an ECMA-262 escape")
        }
    }

    private static func scalarEscape(_ value: UInt32) -> String { "\\u{" + String(value, radix: 16) + "}" }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 48
        case "a"..."f": scalar.value - 87
        case "A"..."F": scalar.value - 55
        default: nil
        }
    }

    /// The value of the `count` hex digits at `i`, and `i` moved past them; nil when they are not
    /// there. ``ECMARegexAutomaton`` reads `\x` and `\u` with it too.
    static func hex(_ scalars: [Unicode.Scalar], _ i: inout Int, count: Int) -> UInt32? {
        guard i + count <= scalars.count else { return nil }
        var value: UInt32 = 0
        for k in 0..<count {
            guard let digit = hexDigit(scalars[i + k]) else { return nil }
            value = value * 16 + digit
        }
        i += count
        return value
    }
}
