/// The head of an HTTP/1.1 message (start line and header fields) as raw bytes, so that what the
/// proxy does not touch passes through byte for byte.
struct HTTPHead: Sendable {
    static let terminator: [UInt8] = Array("\r\n\r\n".utf8)

    let startLine: [UInt8]
    private(set) var fields: [[UInt8]]

    /// The head in `bytes`, which end at (and exclude) the blank line.
    init(_ bytes: some Collection<UInt8>) {
        var lines = Array(bytes).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : Array(line)
        }
        startLine = lines.isEmpty ? [] : lines.removeFirst()
        fields = lines.filter { !$0.isEmpty }
    }

    /// Where the blank line ending the head starts in `bytes`, if it has arrived.
    static func end(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= terminator.count else { return nil }
        for start in 0...(bytes.count - terminator.count) where bytes[start] == 13 {
            if bytes[start..<start + terminator.count].elementsEqual(terminator) { return start }
        }
        return nil
    }

    /// The value of the first field named `name` (case-insensitive), trimmed.
    func value(_ name: String) -> String? {
        values(name).first
    }

    /// The values of every field named `name` (case-insensitive), trimmed.
    func values(_ name: String) -> [String] {
        fields.compactMap { field in
            guard let colon = field.firstIndex(of: UInt8(ascii: ":")),
                  Self.name(field[..<colon]) == name.lowercased() else { return nil }
            return Self.trimmed(String(decoding: field[(colon + 1)...], as: UTF8.self))
        }
    }

    /// Drops every field named in `names` (lower case).
    mutating func remove(_ names: Set<String>) {
        fields.removeAll { field in
            guard let colon = field.firstIndex(of: UInt8(ascii: ":")) else { return false }
            return names.contains(Self.name(field[..<colon]))
        }
    }

    mutating func add(_ name: String, _ value: String) {
        fields.append(Array("\(name): \(value)".utf8))
    }

    /// The head again, blank line included, ready to be followed by the body.
    var bytes: [UInt8] {
        var out = startLine + [13, 10]
        for field in fields { out += field + [13, 10] }
        return out + [13, 10]
    }

    private static func name(_ bytes: ArraySlice<UInt8>) -> String {
        trimmed(String(decoding: bytes, as: UTF8.self)).lowercased()
    }

    private static func trimmed(_ text: String) -> String {
        var rest = Substring(text)
        while let first = rest.first, first == " " || first == "\t" { rest.removeFirst() }
        while let last = rest.last, last == " " || last == "\t" { rest.removeLast() }
        return String(rest)
    }
}
