import JSON

/// A string with `${path}` holes, resolved against data: `"- ${title} (${user.name})"`.
///
/// A path is dot-separated (`user.name`, `tasks.0.title`); inside a list template it is looked up
/// in the item first, then in the view's data. `${.}` is the item itself. A missing value renders
/// as an empty string; `$${` writes a literal `${`.
public struct TemplateString: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal(String)
        case path([String])
    }

    let parts: [Part]

    /// The template, or an error message for an unclosed `${`.
    static func parse(_ text: String) -> Result<TemplateString, ViewDecodingError> {
        guard text.contains("${") else { return .success(TemplateString(parts: [.literal(text)])) }
        var parts: [Part] = []
        var literal = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "$", text[i...].hasPrefix("$${") {
                literal += "${"
                i = text.index(i, offsetBy: 3)
            } else if c == "$", text[i...].hasPrefix("${") {
                let start = text.index(i, offsetBy: 2)
                guard let end = text[start...].firstIndex(of: "}") else {
                    return .failure(ViewDecodingError("", "unclosed \"${\" in \"\(text)\""))
                }
                if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
                let path = text[start..<end].trimmingSpaces()
                parts.append(.path(path == "." || path.isEmpty ? [] : path.split(separator: ".").map(String.init)))
                i = text.index(after: end)
            } else {
                literal.append(c)
                i = text.index(after: i)
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return .success(TemplateString(parts: parts))
    }

    /// Whether the whole string is one `${path}`: then it may resolve to any JSON value.
    var singlePath: [String]? {
        if parts.count == 1, case .path(let p) = parts[0] { return p }
        return nil
    }

    /// The text, with each hole replaced by its value (strings as they are, other values as JSON).
    func render(_ scopes: [JSONValue]) -> String {
        var lowest = Int.max
        return render(scopes, lowest: &lowest)
    }

    /// Also lowers `lowest` to the index of the outermost scope a hole was read from (0 for a hole
    /// found nowhere, since outer data may supply it later): what an update needs to know to reuse
    /// a list item whose own data did not change.
    func render(_ scopes: [JSONValue], lowest: inout Int) -> String {
        if parts.count == 1, case .literal(let s) = parts[0] { return s }
        var out = ""
        for part in parts {
            switch part {
            case .literal(let s): out += s
            case .path(let p):
                switch Self.lookup(p, scopes, lowest: &lowest) {
                case nil, .null?: break
                case .string(let s)?: out += s
                case .number(let n)?:
                    if n == n.rounded(), abs(n) < 1e15 { out += String(Int(n)) } else { out += String(n) }
                case let value?: out += JSONWriter.write(value)
                }
            }
        }
        return out
    }

    /// The value at `path`, in the innermost scope that has its first component.
    static func lookup(_ path: [String], _ scopes: [JSONValue]) -> JSONValue? {
        var lowest = Int.max
        return lookup(path, scopes, lowest: &lowest)
    }

    static func lookup(_ path: [String], _ scopes: [JSONValue], lowest: inout Int) -> JSONValue? {
        guard let first = path.first else {
            lowest = min(lowest, scopes.count - 1)
            return scopes.last
        }
        for index in scopes.indices.reversed() {
            guard let start = member(scopes[index], first) else { continue }
            lowest = min(lowest, index)
            var current = start
            for component in path.dropFirst() {
                guard let next = member(current, component) else { return nil }
                current = next
            }
            return current
        }
        lowest = 0
        return nil
    }

    private static func member(_ value: JSONValue, _ name: String) -> JSONValue? {
        switch value {
        case .object(let o): o[name]
        case .array(let a): Int(name).flatMap { a.indices.contains($0) ? a[$0] : nil }
        default: nil
        }
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
