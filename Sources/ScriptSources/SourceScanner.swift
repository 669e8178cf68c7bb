/// A JavaScript tokenizer good enough to tell what a REPL needs without a parser: whether an input
/// leaves a bracket, string, template or comment open, and where its top-level tokens are. It
/// reads UTF-8 bytes (every character with a meaning in JS syntax is ASCII; other bytes are taken
/// as part of a word). A `/` is a regular expression where a value cannot end before it (after an
/// operator, an opening bracket, a keyword such as `return`), a division elsewhere.
struct SourceScanner {
    struct Token: Equatable {
        enum Kind: Equatable { case word, number, string, template, regex, punctuator }
        let kind: Kind
        /// Byte offsets into the source.
        let start: Int
        let end: Int
        /// Open brackets around the token; an opening or closing bracket counts as outside itself.
        let depth: Int
        /// A line break between the previous token and this one.
        let newlineBefore: Bool
        let text: String
    }

    private(set) var tokens: [Token] = []
    /// A bracket, string, template or block comment is still open at the end: more input may close it.
    private(set) var isOpen = false
    /// A closing bracket that does not match: no more input can help.
    private(set) var isMismatched = false

    private enum Open { case bracket(UInt8), templateExpression }

    private static let operators = [">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=", "<=", ">=",
                                    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "&&", "||", "??", "?.", "++", "--", "**", "<<", ">>"]
        .map { Array($0.utf8) }
    /// Words after which a `/` starts a regular expression.
    private static let regexAfterWords: Set<String> = ["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
                                                       "case", "do", "else", "yield", "await"]

    init(_ source: String) {
        let bytes = Array(source.utf8)
        var stack: [Open] = []
        var index = 0
        var newline = false

        func add(_ kind: Token.Kind, _ start: Int, _ end: Int, depth: Int? = nil) {
            tokens.append(Token(kind: kind, start: start, end: end, depth: depth ?? stack.count, newlineBefore: newline,
                                text: String(decoding: bytes[start..<end], as: UTF8.self)))
            newline = false
        }
        /// Reads a template's text from `index` up to its closing backtick (then true) or `${` (false).
        func templateText() -> Bool? {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "`"): index += 1; return true
                case UInt8(ascii: "$") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "{"): index += 2; return false
                default: index += 1
                }
            }
            return nil
        }
        func regexAllowed() -> Bool {
            guard let last = tokens.last else { return true }
            switch last.kind {
            case .number, .string, .template, .regex: return false
            case .word: return Self.regexAfterWords.contains(last.text)
            case .punctuator: return !(last.text == ")" || last.text == "]" || last.text == "}" || last.text == "++" || last.text == "--")
            }
        }

        while index < bytes.count {
            let byte = bytes[index]
            let start = index
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                newline = true
                index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C:
                index += 1
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                var closed = false
                while index + 1 < bytes.count {
                    if bytes[index] == UInt8(ascii: "\n") { newline = true }
                    if bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/") { closed = true; break }
                    index += 1
                }
                if !closed { isOpen = true; index = bytes.count } else { index += 2 }
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                index += 1
                while index < bytes.count && bytes[index] != byte && bytes[index] != UInt8(ascii: "\n") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                // A line break ends the string (JavaScriptCore reports it); the end of input leaves it open.
                if index >= bytes.count { isOpen = true; index = bytes.count } else if bytes[index] == byte { index += 1 }
                add(.string, start, index)
            case UInt8(ascii: "`"):
                index += 1
                switch templateText() {
                case true?: add(.template, start, index)
                case false?: add(.template, start, index); stack.append(.templateExpression)
                case nil: isOpen = true; index = bytes.count
                }
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                index += 1
                add(.punctuator, start, index)
                stack.append(.bracket(byte))
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                index += 1
                let opening: UInt8 = byte == UInt8(ascii: ")") ? UInt8(ascii: "(") : byte == UInt8(ascii: "]") ? UInt8(ascii: "[") : UInt8(ascii: "{")
                switch stack.last {
                case .bracket(let open)? where open == opening:
                    stack.removeLast()
                    add(.punctuator, start, index)
                case .templateExpression? where byte == UInt8(ascii: "}"):
                    // The template goes on after `${ ... }`.
                    stack.removeLast()
                    switch templateText() {
                    case true?: add(.template, start, index)
                    case false?: add(.template, start, index); stack.append(.templateExpression)
                    case nil: isOpen = true; index = bytes.count
                    }
                default:
                    isMismatched = true
                    add(.punctuator, start, index)
                }
            case UInt8(ascii: "/") where regexAllowed():
                index += 1
                var inClass = false
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") {
                    let c = bytes[index]
                    if c == UInt8(ascii: "\\") { index += 2; continue }
                    if c == UInt8(ascii: "[") { inClass = true } else if c == UInt8(ascii: "]") { inClass = false }
                    else if c == UInt8(ascii: "/") && !inClass { break }
                    index += 1
                }
                index = min(index + 1, bytes.count)
                while index < bytes.count && Self.isWordByte(bytes[index]) { index += 1 }
                add(.regex, start, index)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                while index < bytes.count && (Self.isWordByte(bytes[index]) || bytes[index] == UInt8(ascii: ".")) { index += 1 }
                add(.number, start, index)
            default:
                if Self.isWordByte(byte) {
                    while index < bytes.count && Self.isWordByte(bytes[index]) { index += 1 }
                    add(.word, start, index)
                } else {
                    let length = Self.operators.first { op in index + op.count <= bytes.count && bytes[index..<(index + op.count)].elementsEqual(op) }?.count ?? 1
                    index += length
                    add(.punctuator, start, index)
                }
            }
        }
        if !stack.isEmpty { isOpen = true }
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...0xFF:
            return true
        default:
            return false
        }
    }
}
