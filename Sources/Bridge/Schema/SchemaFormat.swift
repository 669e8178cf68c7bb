/// A `format` the validator can assert, when format assertion is on (``SchemaOptions``): the
/// syntax each RFC gives, checked by hand on the string's scalars, without Foundation.
/// Formats not listed here stay annotations even then.
enum SchemaFormat: String, Sendable {
    case dateTime = "date-time", date, time, duration, email, idnEmail = "idn-email", hostname
    case ipv4, ipv6, uri, uriReference = "uri-reference", iri, iriReference = "iri-reference", uuid
    case jsonPointer = "json-pointer", relativeJSONPointer = "relative-json-pointer", regex, uriTemplate = "uri-template"

    /// "a date-time (RFC 3339)", for messages.
    var label: String { "a valid \(rawValue)" }

    func admits(_ s: String) -> Bool {
        let scalars = Array(s.unicodeScalars)
        switch self {
        case .date: return Self.isDate(scalars[...])
        case .time: return Self.isTime(scalars[...])
        case .dateTime:
            guard scalars.count > 11, scalars[10] == "T" || scalars[10] == "t" else { return false }
            return Self.isDate(scalars[..<10]) && Self.isTime(scalars[11...])
        case .duration: return Self.isDuration(scalars)
        case .email: return Self.isEmail(scalars, international: false)
        case .idnEmail: return Self.isEmail(scalars, international: true)
        case .hostname: return Self.isHostname(scalars[...])
        case .ipv4: return Self.isIPv4(scalars[...])
        case .ipv6: return Self.isIPv6(scalars[...])
        case .uri: return SchemaURISyntax.isURI(scalars, international: false)
        case .iri: return SchemaURISyntax.isURI(scalars, international: true)
        case .uriReference: return SchemaURISyntax.isReference(scalars, international: false)
        case .iriReference: return SchemaURISyntax.isReference(scalars, international: true)
        case .uuid: return Self.isUUID(scalars)
        case .jsonPointer: return Self.isJSONPointer(scalars[...])
        case .relativeJSONPointer: return Self.isRelativeJSONPointer(scalars)
        case .regex: return (try? SchemaPattern(s)) != nil
        case .uriTemplate: return Self.isURITemplate(scalars)
        }
    }

    // MARK: Dates and times (RFC 3339 §5.6, durations from its appendix A)

    static func digits(_ s: ArraySlice<Unicode.Scalar>) -> Int? {
        guard !s.isEmpty, s.allSatisfy(isDigit) else { return nil }
        return s.reduce(0) { $0 * 10 + Int($1.value - 48) }
    }

    static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
    static func isHex(_ c: Unicode.Scalar) -> Bool { isDigit(c) || ("a"..."f").contains(c) || ("A"..."F").contains(c) }
    static func isAlpha(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }

    static func isDate(_ s: ArraySlice<Unicode.Scalar>) -> Bool {
        let s = Array(s)
        guard s.count == 10, s[4] == "-", s[7] == "-", let year = digits(s[0..<4]), let month = digits(s[5..<7]),
              let day = digits(s[8..<10]), (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    static func isTime(_ s: ArraySlice<Unicode.Scalar>) -> Bool {
        let s = Array(s)
        guard s.count >= 9, s[2] == ":", s[5] == ":", let hour = digits(s[0..<2]), let minute = digits(s[3..<5]),
              let second = digits(s[6..<8]), hour <= 23, minute <= 59, second <= 60 else { return false }
        var i = 8
        if s[i] == "." {
            i += 1
            let start = i
            while i < s.count, isDigit(s[i]) { i += 1 }
            guard i > start else { return false }
        }
        guard i < s.count else { return false }
        var offsetMinutes = 0
        if s[i] == "Z" || s[i] == "z" {
            guard i + 1 == s.count else { return false }
        } else {
            guard s[i] == "+" || s[i] == "-", s.count - i == 6, s[i + 3] == ":", let h = digits(s[i + 1..<i + 3]),
                  let m = digits(s[i + 4..<i + 6]), h <= 23, m <= 59 else { return false }
            offsetMinutes = (h * 60 + m) * (s[i] == "+" ? 1 : -1)
        }
        guard second == 60 else { return true }
        // A leap second is 23:59:60 in UTC.
        let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
        return utc == 23 * 60 + 59
    }

    static func isDuration(_ s: [Unicode.Scalar]) -> Bool {
        guard s.first == "P", s.count > 1 else { return false }
        // Units in the order they may come, before and after T.
        var i = 1
        func units(_ allowed: [Unicode.Scalar]) -> [Unicode.Scalar]? {
            var seen: [Unicode.Scalar] = []
            var next = 0
            while i < s.count, s[i] != "T" {
                let start = i
                while i < s.count, isDigit(s[i]) { i += 1 }
                guard i > start, i < s.count, let k = allowed[next...].firstIndex(of: s[i]) else { return nil }
                seen.append(s[i])
                next = k + 1
                i += 1
            }
            return seen
        }
        guard let date = units(["Y", "M", "W", "D"]) else { return false }
        if date.contains("W"), date != ["W"] { return false }
        // Units must be contiguous (no Y then D without M): RFC 3339's grammar.
        if !date.isEmpty, !Self.contiguous(date, in: ["Y", "M", "D"]), date != ["W"] { return false }
        guard i < s.count else { return !date.isEmpty }
        guard !date.contains("W") else { return false }
        i += 1  // T
        guard let time = units(["H", "M", "S"]), !time.isEmpty, i == s.count else { return false }
        return Self.contiguous(time, in: ["H", "M", "S"])
    }

    private static func contiguous(_ units: [Unicode.Scalar], in order: [Unicode.Scalar]) -> Bool {
        guard let first = order.firstIndex(of: units[0]) else { return false }
        return Array(order[first..<min(order.count, first + units.count)]) == units
    }

    // MARK: Addresses and names

    static func isIPv4(_ s: ArraySlice<Unicode.Scalar>) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard part.count <= 3, let value = digits(part), value <= 255 else { return false }
            return part.count == 1 || part.first != "0"
        }
    }

    static func isIPv6(_ s: ArraySlice<Unicode.Scalar>) -> Bool {
        var text = Array(s)
        // A dotted IPv4 address may stand for the last two groups.
        if let colon = text.lastIndex(of: ":"), text[(colon + 1)...].contains(".") {
            guard isIPv4(text[(colon + 1)...]) else { return false }
            text = Array(text[...colon]) + Array("0:0".unicodeScalars)
        }
        func groups(_ part: ArraySlice<Unicode.Scalar>) -> Int? {
            if part.isEmpty { return 0 }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            return pieces.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(isHex) }) ? pieces.count : nil
        }
        let pairs = text.indices.dropLast().filter { text[$0] == ":" && text[$0 + 1] == ":" }
        switch pairs.count {
        case 0: return groups(text[...]) == 8
        case 1:
            guard let left = groups(text[..<pairs[0]]), let right = groups(text[(pairs[0] + 2)...]) else { return false }
            return left + right < 8
        default: return false
        }
    }

    static func isHostname(_ s: ArraySlice<Unicode.Scalar>) -> Bool {
        guard !s.isEmpty, s.count <= 253 else { return false }
        return s.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            guard (1...63).contains(label.count), label.first != "-", label.last != "-",
                  label.allSatisfy({ isAlpha($0) || isDigit($0) || $0 == "-" }) else { return false }
            // "--" in the third and fourth places is reserved for IDNA A-labels ("xn--").
            if label.count >= 4, label[label.startIndex + 2] == "-", label[label.startIndex + 3] == "-" {
                let prefix = String(String.UnicodeScalarView(label.prefix(2))).lowercased()
                return prefix == "xn" && label.count > 4
            }
            return true
        }
    }

    static func isEmail(_ s: [Unicode.Scalar], international: Bool) -> Bool {
        guard let at = s.lastIndex(of: "@"), at > 0, at < s.count - 1 else { return false }
        let local = s[..<at]
        let domain = s[(at + 1)...]
        let localOK: Bool
        if local.first == "\"" {
            localOK = local.count >= 2 && local.last == "\"" && !local.dropFirst().dropLast().contains { $0 == "\"" && true }
        } else {
            let atext = Set("!#$%&'*+-/=?^_`{|}~".unicodeScalars)
            localOK = local.first != "." && local.last != "." && !zip(local, local.dropFirst()).contains { $0 == "." && $1 == "." }
                && local.allSatisfy { isAlpha($0) || isDigit($0) || atext.contains($0) || $0 == "." || international && $0.value > 0x7F }
        }
        guard localOK else { return false }
        if domain.first == "[" {
            guard domain.last == "]" else { return false }
            let literal = domain.dropFirst().dropLast()
            if literal.starts(with: "IPv6:".unicodeScalars) { return isIPv6(literal.dropFirst(5)) }
            return isIPv4(literal)
        }
        if international { return !domain.isEmpty && domain.allSatisfy { $0 != " " && $0 != "@" } && domain.first != "." && domain.last != "." }
        return isHostname(domain)
    }

    // MARK: Identifiers

    static func isUUID(_ s: [Unicode.Scalar]) -> Bool {
        guard s.count == 36 else { return false }
        for (i, c) in s.enumerated() {
            if [8, 13, 18, 23].contains(i) ? c != "-" : !isHex(c) { return false }
        }
        return true
    }

    static func isJSONPointer(_ s: ArraySlice<Unicode.Scalar>) -> Bool {
        guard s.isEmpty || s.first == "/" else { return false }
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == "~" {
                guard i + 1 < s.endIndex, s[i + 1] == "0" || s[i + 1] == "1" else { return false }
            }
            i += 1
        }
        return true
    }

    static func isRelativeJSONPointer(_ s: [Unicode.Scalar]) -> Bool {
        var i = 0
        while i < s.count, isDigit(s[i]) { i += 1 }
        guard i > 0, i == 1 || s[0] != "0" else { return false }
        if i < s.count, s[i] == "+" || s[i] == "-" {
            let start = i + 1
            i += 1
            while i < s.count, isDigit(s[i]) { i += 1 }
            guard i > start, i == start + 1 || s[start] != "0" else { return false }
        }
        if i == s.count { return true }
        if s[i] == "#" { return i + 1 == s.count }
        return isJSONPointer(s[i...])
    }

    static func isURITemplate(_ s: [Unicode.Scalar]) -> Bool {
        var open = false
        for c in s {
            if c == "{" { if open { return false }; open = true }
            else if c == "}" { if !open { return false }; open = false }
        }
        return !open
    }
}
