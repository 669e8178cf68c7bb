import JSON

/// One column of a table: its name, type and constraints, parsed from a declaration such as
/// `"TEXT NOT NULL DEFAULT ''"`.
///
/// The declaration is parsed into this structure and SQL is written from the structure, so no
/// text a caller wrote reaches SQLite: `"TEXT; DROP TABLE x"` is refused by the parser.
public struct ColumnDefinition: Sendable, Equatable {
    public var name: String
    public var type: ColumnType
    public var notNull: Bool
    public var unique: Bool
    public var defaultValue: JSONValue?

    public init(name: String, type: ColumnType, notNull: Bool = false, unique: Bool = false, defaultValue: JSONValue? = nil) {
        self.name = name
        self.type = type
        self.notNull = notNull
        self.unique = unique
        self.defaultValue = defaultValue
    }

    public static let grammar = "expected \"TYPE [NOT NULL] [UNIQUE] [DEFAULT number|'text'|NULL|TRUE|FALSE]\" with TYPE one of TEXT, INTEGER, REAL, NUMERIC, BLOB, BOOLEAN, JSON"

    /// Parses `"INTEGER NOT NULL DEFAULT 0"`.
    public static func parse(name: String, declaration: String, path: String) throws(PersistenceError) -> ColumnDefinition {
        var tokens = try tokenize(declaration, path: path)
        guard !tokens.isEmpty, let type = ColumnType(rawValue: tokens.removeFirst().uppercased()) else {
            throw .invalid(path: path, message: "\(grammar); got \(Quoted(declaration))")
        }
        var column = ColumnDefinition(name: name, type: type)
        while !tokens.isEmpty {
            let word = tokens.removeFirst()
            switch word.uppercased() {
            case "NOT" where tokens.first?.uppercased() == "NULL":
                tokens.removeFirst()
                column.notNull = true
            case "UNIQUE":
                column.unique = true
            case "DEFAULT" where !tokens.isEmpty:
                let token = tokens.removeFirst()
                guard let value = literal(token) else {
                    throw .invalid(path: path, message: "DEFAULT: expected a number, a 'quoted string', NULL, TRUE or FALSE; got \(Quoted(token))")
                }
                guard type.accepts(value) else {
                    throw .invalid(path: path, message: "DEFAULT: expected \(type.expectation) for a \(type.rawValue) column; got \(Quoted(token))")
                }
                column.defaultValue = value
            default:
                throw .invalid(path: path, message: "\(grammar); unexpected \(Quoted(word)) in \(Quoted(declaration))")
            }
        }
        return column
    }

    /// The declaration as a schema writes it (what `parse` reads back).
    public var declaration: String {
        var out = type.rawValue
        if notNull { out += " NOT NULL" }
        if unique { out += " UNIQUE" }
        if let defaultValue { out += " DEFAULT " + Self.sqlLiteral(defaultValue) }
        return out
    }

    /// The column's definition in CREATE TABLE / ADD COLUMN.
    public var sql: String {
        var out = Identifier.quote(name) + " " + type.sqlType
        if notNull { out += " NOT NULL" }
        if unique { out += " UNIQUE" }
        if let defaultValue { out += " DEFAULT " + Self.sqlLiteral(defaultValue) }
        return out
    }

    static func sqlLiteral(_ value: JSONValue) -> String {
        switch value {
        case .null: return "NULL"
        case .bool(let b): return b ? "1" : "0"
        case .number(let n):
            if let i = value.intValue { return String(i) }
            return String(n)
        case .string(let s): return "'" + s.replacingOccurrences("'", "''") + "'"
        default: return "NULL"
        }
    }

    private static func literal(_ token: String) -> JSONValue? {
        switch token.uppercased() {
        case "NULL": return .null
        case "TRUE": return .bool(true)
        case "FALSE": return .bool(false)
        default: break
        }
        if token.hasPrefix("'") { return .string(String(token.dropFirst().dropLast()).replacingOccurrences("''", "'")) }
        if let n = Double(token), n.isFinite { return .number(n) }
        return nil
    }

    /// Words, and 'quoted strings' ('' escapes a quote) kept whole with their quotes.
    private static func tokenize(_ text: String, path: String) throws(PersistenceError) -> [String] {
        var tokens: [String] = []
        var current = ""
        var chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                var literal = "'"
                i += 1
                var closed = false
                while i < chars.count {
                    if chars[i] == "'" {
                        if i + 1 < chars.count && chars[i + 1] == "'" { literal += "''"; i += 2; continue }
                        closed = true
                        i += 1
                        break
                    }
                    literal.append(chars[i])
                    i += 1
                }
                guard closed else { throw .invalid(path: path, message: "unterminated 'string' in \(Quoted(text))") }
                tokens.append(literal + "'")
                continue
            }
            if c == " " || c == "\t" {
                if !current.isEmpty { tokens.append(current); current = "" }
            } else if c.isLetter || c.isNumber || c == "." || c == "-" || c == "+" || c == "_" {
                current.append(c)
            } else {
                throw .invalid(path: path, message: "\(grammar); unexpected character \(Quoted(String(c))) in \(Quoted(text))")
            }
            i += 1
        }
        if !current.isEmpty { tokens.append(current) }
        chars.removeAll()
        return tokens
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
