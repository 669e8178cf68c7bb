/// Names of tables, columns and indexes: the only text from callers that is ever spliced into SQL,
/// so they are checked here and always emitted double-quoted.
public enum Identifier {
    /// `[A-Za-z_][A-Za-z0-9_]*`, at most 64 characters, and not reserved by SQLite or by us.
    public static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64 else { return false }
        for (index, byte) in name.utf8.enumerated() {
            let letter = (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
            let digit = byte >= 48 && byte <= 57
            guard letter || (digit && index > 0) else { return false }
        }
        let lower = name.lowercased()
        return !lower.hasPrefix("sqlite_") && !lower.hasPrefix("_hybrid")
    }

    public static func check(_ name: String, at path: String, what: String) throws(PersistenceError) {
        guard isValid(name) else {
            throw .invalid(path: path, message: "expected a \(what) name of letters, digits and underscores, starting with a letter or underscore (at most 64, not sqlite_* or _hybrid*), got \(Quoted(name))")
        }
    }

    public static func quote(_ name: String) -> String { "\"" + name + "\"" }
}

/// A caller's string shown in an error message, shortened and quoted.
public struct Quoted: CustomStringConvertible {
    public let text: String
    public init(_ text: String) { self.text = text }
    public var description: String {
        let short = text.count > 60 ? String(text.prefix(60)) + "…" : text
        var out = "\""
        for c in short.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}
