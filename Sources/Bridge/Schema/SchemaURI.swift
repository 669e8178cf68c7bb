/// A URI as `$id`, `$ref` and `$schema` use them: parsed into RFC 3986's five parts so that a
/// reference resolves against its base (`child.json` against `http://x/a/b.json` is
/// `http://x/a/child.json`). Text only, no normalisation beyond dot segments: schemas name one
/// another by exact strings, and Foundation's `URL` is not available to the validator.
struct SchemaURI: Equatable, Sendable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
    }

    /// The URI without its fragment.
    var withoutFragment: SchemaURI {
        var copy = self
        copy.fragment = nil
        return copy
    }

    var text: String {
        var out = ""
        if let scheme { out += scheme + ":" }
        if let authority { out += "//" + authority }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    /// `reference` resolved against this base (RFC 3986 §5.2.2).
    func resolving(_ reference: String) -> SchemaURI {
        let r = SchemaURI(reference)
        var t = r
        if r.scheme != nil {
            t.path = Self.removingDotSegments(r.path)
            return t
        }
        t.scheme = scheme
        if r.authority != nil {
            t.path = Self.removingDotSegments(r.path)
            return t
        }
        t.authority = authority
        if r.path.isEmpty {
            t.path = path
            t.query = r.query ?? query
        } else if r.path.hasPrefix("/") {
            t.path = Self.removingDotSegments(r.path)
        } else {
            t.path = Self.removingDotSegments(merged(r.path))
        }
        return t
    }

    private func merged(_ relative: String) -> String {
        if authority != nil, path.isEmpty { return "/" + relative }
        guard let slash = path.lastIndex(of: "/") else { return relative }
        return path[...slash] + relative
    }

    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (i, segment) in segments.enumerated() {
            let last = i == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if output.count > 1 || (output.count == 1 && !output[0].isEmpty) { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        return output.joined(separator: "/")
    }
}
