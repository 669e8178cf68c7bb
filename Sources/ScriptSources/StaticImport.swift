/// One `import ... from "x"` (or bare `import "x"`) or `export ... from "x"` statement of a
/// JavaScript ES module, read from its source before any of it runs: what the loader's link step
/// (js/runtime/modules.js, `link`) resolves and loads ahead of the module's body, and the names it
/// checks against what the imported module exports, as node does before it evaluates anything
/// (`SyntaxError: The requested module './m.mjs' does not provide an export named 'x'`).
///
/// ```swift
/// StaticImport.find(in: "import answer, { a as b } from './m.mjs';")
/// // [StaticImport(specifier: "./m.mjs", names: [default at 1:8, a at 1:20])]
/// ```
///
/// It reads tokens (``SourceScanner``), not a syntax tree: a statement of a shape it does not
/// follow is left out, so that its names go unchecked (the module still loads as before). Only
/// for JavaScript: a TypeScript import may name a type, which no module exports at run time.
public struct StaticImport: Sendable, Equatable {
    /// A name taken from the other module, where the author wrote it (line from 1, column from 1
    /// in UTF-16 code units, as JavaScriptCore counts).
    public struct Name: Sendable, Equatable {
        public let name: String
        public let line: Int
        public let column: Int

        public init(name: String, line: Int, column: Int) {
            self.name = name
            self.line = line
            self.column = column
        }
    }

    public let specifier: String
    /// The names taken by name: `{ a, b as c }` gives `a` and `b`, a default import `default`;
    /// none for a namespace import, `export *` or an import for its effects.
    public let names: [Name]

    public init(specifier: String, names: [Name]) {
        self.specifier = specifier
        self.names = names
    }

    /// The module's static imports and re-exports, in source order.
    public static func find(in source: String) -> [StaticImport] {
        guard source.contains("import") || source.contains("export") else { return [] }
        let bytes = Array(source.utf8)
        var found: [StaticImport] = []
        var lines: LineTable?
        for start in statementStarts(bytes) {
            // The statement alone, read as tokens: up to its `;`, or far enough for any import list.
            var end = start
            while end < bytes.count, end - start < 16_384, bytes[end] != UInt8(ascii: ";") { end += 1 }
            let scanner = SourceScanner(String(decoding: bytes[start..<end], as: UTF8.self))
            guard let keyword = scanner.tokens.first else { continue }
            var reader = Reader(tokens: scanner.tokens, offset: start)
            reader.index = 1
            guard let statement = keyword.text == "import" ? reader.importStatement() : reader.reExport() else { continue }
            if lines == nil, !statement.names.isEmpty { lines = LineTable(bytes) }
            found.append(StaticImport(specifier: statement.specifier, names: statement.names.map { name in
                let (line, column) = lines!.position(ofByte: name.offset)
                return Name(name: name.name, line: line, column: column)
            }))
        }
        return found
    }

    /// Byte offsets of each `import` and `export` keyword outside any bracket, string, template,
    /// comment or regular expression, and not a property (`x.import`): the rules of
    /// ``SourceScanner``, without making its tokens, which a warm start cannot afford per module.
    static func statementStarts(_ bytes: [UInt8]) -> [Int] {
        enum Last { case none, word(Int, Int), value, closing, dot, other }
        var starts: [Int] = []
        /// Open brackets (a byte) and template expressions (0).
        var stack: [UInt8] = []
        var last = Last.none
        var index = 0
        func isWord(_ byte: UInt8) -> Bool { SourceScanner.isWordByte(byte) }
        func matches(_ word: String, _ start: Int, _ end: Int) -> Bool { bytes[start..<end].elementsEqual(word.utf8) }
        /// After a template's backtick or a `}` closing its `${`: to its end (true) or a `${` (false).
        func templateText() -> Bool {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "`"): index += 1; return true
                case UInt8(ascii: "$") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "{"): index += 2; return false
                default: index += 1
                }
            }
            return true
        }
        func regexAllowed() -> Bool {
            switch last {
            case .none, .dot, .other: return true
            case .value, .closing: return false
            case .word(let start, let end): return regexAfterWords.contains { matches($0, start, end) }
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                index += 1
            case UInt8(ascii: "/") where next == UInt8(ascii: "/"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                index += 2
                while index + 1 < bytes.count && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                index += 2
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                index += 1
                while index < bytes.count && bytes[index] != byte && bytes[index] != UInt8(ascii: "\n") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                last = .value
            case UInt8(ascii: "`"):
                index += 1
                if !templateText() { stack.append(0) }
                last = .value
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                stack.append(byte)
                index += 1
                last = .other
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                index += 1
                if byte == UInt8(ascii: "}"), stack.last == 0 {
                    stack.removeLast()
                    if !templateText() { stack.append(0) }
                    last = .value
                } else {
                    if !stack.isEmpty { stack.removeLast() }
                    last = .closing
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
                index += 1
                while index < bytes.count && isWord(bytes[index]) { index += 1 }
                last = .value
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                while index < bytes.count && (isWord(bytes[index]) || bytes[index] == UInt8(ascii: ".")) { index += 1 }
                last = .value
            case UInt8(ascii: "+") where next == byte, UInt8(ascii: "-") where next == byte:
                index += 2
                last = .closing
            case UInt8(ascii: "."):
                index += 1
                last = next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9") ? .value : .dot
            case UInt8(ascii: "?") where next == UInt8(ascii: "."):
                index += 2
                last = .dot
            default:
                guard isWord(byte) else {
                    index += 1
                    last = .other
                    continue
                }
                let start = index
                while index < bytes.count && isWord(bytes[index]) { index += 1 }
                if stack.isEmpty, index - start == 6, (matches("import", start, index) || matches("export", start, index)) {
                    if case .dot = last {} else { starts.append(start) }
                }
                last = .word(start, index)
            }
        }
        return starts
    }

    /// Words after which a `/` starts a regular expression (``SourceScanner``'s).
    private static let regexAfterWords = ["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
                                          "case", "do", "else", "yield", "await"]

    /// One statement as read: its specifier, and each name with its byte offset in the source.
    private struct Parsed {
        let specifier: String
        let names: [(name: String, offset: Int)]
    }

    /// A cursor over a statement's tokens, from after its `import` or `export`; `offset` is where
    /// the statement starts in the source.
    private struct Reader {
        let tokens: [SourceScanner.Token]
        let offset: Int
        var index = 0

        var current: SourceScanner.Token? { index < tokens.count ? tokens[index] : nil }

        mutating func take(_ text: String) -> Bool {
            guard let current, current.text == text, current.kind != .string, current.kind != .template else { return false }
            index += 1
            return true
        }

        /// `import "x"`, `import d from "x"`, `import * as ns from "x"`, `import { a, b as c } from "x"`,
        /// `import d, { a } from "x"`, `import d, * as ns from "x"`. Not `import(...)` or `import.meta`.
        mutating func importStatement() -> Parsed? {
            guard let first = current else { return nil }
            if first.kind == .string { return specifier().map { Parsed(specifier: $0, names: []) } }
            var names: [(name: String, offset: Int)] = []
            if first.kind == .word, first.text != "from" || tokens.count > index + 1 && tokens[index + 1].text == "from" {
                names.append(name("default", at: first))
                index += 1
                guard take(",") else { return clause(names) }
            }
            if take("*") {
                guard take("as"), current?.kind == .word else { return nil }
                index += 1
                return clause(names)
            }
            guard take("{"), let list = namedList() else { return nil }
            return clause(names + list)
        }

        /// `export { a, b as c } from "x"`, `export * from "x"`, `export * as ns from "x"`; nil for
        /// an export of the module's own bindings.
        mutating func reExport() -> Parsed? {
            if take("*") {
                if take("as") {
                    guard current?.kind == .word || current?.kind == .string else { return nil }
                    index += 1
                }
                return clause([])
            }
            guard take("{"), let list = namedList() else { return nil }
            return clause(list)
        }

        /// `from "x"` and the statement's end.
        private mutating func clause(_ names: [(name: String, offset: Int)]) -> Parsed? {
            guard take("from"), let specifier = specifier() else { return nil }
            return Parsed(specifier: specifier, names: names)
        }

        /// The names of `{ a, b as c, "x y" as d, default as e }` up to its `}` (the `{` taken).
        private mutating func namedList() -> [(name: String, offset: Int)]? {
            var names: [(name: String, offset: Int)] = []
            while let token = current, token.text != "}" || token.kind == .string {
                guard token.kind == .word || token.kind == .string, let imported = literal(token) else { return nil }
                names.append(name(imported, at: token))
                index += 1
                if take("as") {
                    guard current?.kind == .word || current?.kind == .string else { return nil }
                    index += 1
                }
                guard take(",") || current?.text == "}" else { return nil }
            }
            guard take("}") else { return nil }
            return names
        }

        private mutating func specifier() -> String? {
            guard let token = current, token.kind == .string, let text = literal(token) else { return nil }
            index += 1
            return text
        }

        /// A word as written; a string without escapes, unquoted (one with escapes is not followed).
        private func literal(_ token: SourceScanner.Token) -> String? {
            guard token.kind == .string else { return token.text }
            guard token.text.count >= 2, !token.text.contains("\\") else { return nil }
            return String(token.text.dropFirst().dropLast())
        }

        private func name(_ text: String, at token: SourceScanner.Token) -> (name: String, offset: Int) {
            (text, offset + token.start)
        }
    }
}

/// Line and column (both from 1, columns in UTF-16 code units) of a byte offset into a source.
struct LineTable {
    private let bytes: [UInt8]
    private var starts: [Int] = [0]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
    }

    func position(ofByte offset: Int) -> (line: Int, column: Int) {
        var low = 0, high = starts.count
        while low + 1 < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle } else { high = middle }
        }
        let text = String(decoding: bytes[starts[low]..<min(offset, bytes.count)], as: UTF8.self)
        return (low + 1, text.utf16.count + 1)
    }
}
