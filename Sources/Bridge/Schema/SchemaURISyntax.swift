/// RFC 3986's URI and URI-reference grammar (and RFC 3987's IRIs, which also allow characters
/// beyond ASCII), for the `uri`, `uri-reference`, `iri` and `iri-reference` formats.
enum SchemaURISyntax {
    private static let unreserved = Set("-._~".unicodeScalars)
    private static let subDelimiters = Set("!$&'()*+,;=".unicodeScalars)

    static func isURI(_ s: [Unicode.Scalar], international: Bool) -> Bool {
        guard let colon = schemeEnd(s) else { return false }
        return isRest(s[(colon + 1)...], international: international)
    }

    static func isReference(_ s: [Unicode.Scalar], international: Bool) -> Bool {
        if let colon = schemeEnd(s) { return isRest(s[(colon + 1)...], international: international) }
        // No scheme: a colon may not come before the first "/", "?" or "#" (RFC 3986 path-noscheme).
        let firstSegment = s.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !firstSegment.contains(":") else { return false }
        return isRest(s[...], international: international)
    }

    /// The index of the colon after a well-formed scheme, or nil.
    private static func schemeEnd(_ s: [Unicode.Scalar]) -> Int? {
        guard let colon = s.firstIndex(of: ":"), colon > 0, SchemaFormat.isAlpha(s[0]) else { return nil }
        let scheme = s[..<colon]
        guard scheme.allSatisfy({ SchemaFormat.isAlpha($0) || SchemaFormat.isDigit($0) || $0 == "+" || $0 == "-" || $0 == "." }) else { return nil }
        return colon
    }

    /// hier-part (or relative-part), query and fragment.
    private static func isRest(_ s: ArraySlice<Unicode.Scalar>, international: Bool) -> Bool {
        var rest = s
        if let hash = rest.firstIndex(of: "#") {
            guard isText(rest[(hash + 1)...], extra: "/?:@", international: international) else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            guard isText(rest[(question + 1)...], extra: "/?:@", international: international) else { return false }
            rest = rest[..<question]
        }
        if rest.starts(with: ["/", "/"]) {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            guard isAuthority(afterSlashes[..<end], international: international) else { return false }
            rest = afterSlashes[end...]
        }
        return isText(rest, extra: "/:@", international: international)
    }

    private static func isAuthority(_ s: ArraySlice<Unicode.Scalar>, international: Bool) -> Bool {
        var host = s
        if let at = host.lastIndex(of: "@") {
            guard isText(host[..<at], extra: ":", international: international) else { return false }
            host = host[(at + 1)...]
        }
        if host.first == "[" {
            guard let close = host.firstIndex(of: "]") else { return false }
            let literal = host[(host.startIndex + 1)..<close]
            guard SchemaFormat.isIPv6(literal) || literal.first == "v" || literal.first == "V" else { return false }
            host = host[(close + 1)...]
            guard host.isEmpty || host.first == ":" else { return false }
        }
        if let colon = host.lastIndex(of: ":") {
            guard host[(colon + 1)...].allSatisfy(SchemaFormat.isDigit) else { return false }
            host = host[..<colon]
        }
        if host.first == "[" { return true }
        return isText(host, extra: "", international: international)
    }

    /// Unreserved characters, sub-delimiters, percent-escapes and `extra`; and, in an IRI, any
    /// character beyond ASCII.
    private static func isText(_ s: ArraySlice<Unicode.Scalar>, extra: String, international: Bool) -> Bool {
        let extra = Set(extra.unicodeScalars)
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c == "%" {
                guard i + 2 < s.endIndex,
                      SchemaFormat.isHex(s[i + 1]), SchemaFormat.isHex(s[i + 2]) else { return false }
                i += 3
                continue
            }
            guard SchemaFormat.isAlpha(c) || SchemaFormat.isDigit(c) || unreserved.contains(c) || subDelimiters.contains(c)
                || extra.contains(c) || international && c.value > 0x7F else { return false }
            i += 1
        }
        return true
    }
}
