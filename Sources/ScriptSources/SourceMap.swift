// The ScriptSources module: how an app's source files become the JS that runs (module formats,
// the TypeScript/ES module transform, source maps), as values. It must never import the engine:
// the engine uses it, and it runs where no engine does (checks, caches, tests).
import JSON
import Synchronization

/// A version 3 source map: where each position of a generated file (the CommonJS esbuild wrote
/// from a TypeScript or ES module file) came from in the original.
///
/// Generated and original positions are 0-based here, lines and columns, as `mappings` writes
/// them; columns count UTF-16 code units. ``SourceMapRegistry`` speaks in stack trace terms
/// (1-based) and converts.
///
/// ```swift
/// let map = try SourceMap(json: text, location: "/app/.cache/cart.js.map")
/// map.original(line: 26, column: 16)   // cart.ts line 6 column 16, 0-based
/// ```
///
/// `mappings` is decoded at the first lookup, not when the map is read: most modules never
/// throw. Index maps (`sections`) are refused.
public final class SourceMap: Sendable {
    /// The generated file's name, as the map gives it.
    public let file: String?
    public let sourceRoot: String?
    /// Each entry of `sources` resolved: against `sourceRoot`, then against the folder of the
    /// map's location when still relative, with `.` and `..` folded. `file://` URLs become paths;
    /// other URLs (`webpack://...`) are kept as written; a `null` source is "".
    public let sources: [String]
    /// `sourcesContent`, one per source (nil where absent).
    public let sourcesContent: [String?]
    public let names: [String]
    /// `mappings`, undecoded.
    let mappings: [UInt8]
    private let decoded = Mutex<Result<Mappings, SourceMapError>?>(nil)

    /// Reads a map from its JSON text. `location` is where the map lives (the `.map` file, or the
    /// generated file for an inline map): relative `sources` are resolved against its folder.
    /// `source`: the file the generated code was made from, when the caller knows it; a map of one
    /// source then names that file, whatever path its `sources` holds (a cached transform's map
    /// may have been written when that path read differently).
    public convenience init(json: String, location: String? = nil, source: String? = nil) throws(SourceMapError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(json)
        } catch {
            throw SourceMapError(.malformed, "source map: not JSON: \(error)")
        }
        try self.init(value, location: location, source: source)
    }

    public init(_ value: JSONValue, location: String? = nil, source: String? = nil) throws(SourceMapError) {
        guard let object = value.objectValue else {
            throw SourceMapError(.malformed, "source map: expected an object, got \(value.typeName)")
        }
        if object["sections"] != nil {
            throw SourceMapError(.indexMap, "source map: an index map (sections) is not supported; expected one map per generated file")
        }
        guard object["version"]?.intValue == 3 else {
            throw SourceMapError(.version, "source map: version: expected 3, got \(object["version"].map { "\($0)" } ?? "nothing")")
        }
        func strings(_ key: String, nullable: Bool) throws(SourceMapError) -> [String?] {
            guard let member = object[key], !member.isNull else { return [] }
            guard let array = member.arrayValue else {
                throw SourceMapError(.malformed, "source map: \(key): expected an array, got \(member.typeName)")
            }
            var result: [String?] = []
            result.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                if let string = element.stringValue {
                    result.append(string)
                } else if nullable, element.isNull {
                    result.append(nil)
                } else {
                    throw SourceMapError(.malformed, "source map: \(key)[\(index)]: expected a string\(nullable ? " or null" : ""), got \(element.typeName)")
                }
            }
            return result
        }
        func string(_ key: String) throws(SourceMapError) -> String? {
            guard let member = object[key], !member.isNull else { return nil }
            guard let text = member.stringValue else {
                throw SourceMapError(.malformed, "source map: \(key): expected a string, got \(member.typeName)")
            }
            return text
        }
        guard let mappings = try string("mappings") else {
            throw SourceMapError(.malformed, "source map: mappings: expected a string, got nothing")
        }
        file = try string("file")
        let root = try string("sourceRoot")
        sourceRoot = root
        let written = try strings("sources", nullable: true)
        if let source, written.count == 1 {
            sources = [source]
        } else {
            sources = written.map { Self.resolve($0 ?? "", root: root, location: location) }
        }
        let contents = try strings("sourcesContent", nullable: true)
        sourcesContent = written.indices.map { $0 < contents.count ? contents[$0] : nil }
        names = try strings("names", nullable: false).map { $0 ?? "" }
        self.mappings = Array(mappings.utf8)
    }

    /// The original position of generated `line` and `column` (both 0-based): that of the last
    /// mapping on the line at or before the column, as browsers and node look up. Nil when there
    /// is none, when that mapping has no source (a segment of one field), or when `mappings`
    /// does not decode.
    public func original(line: Int, column: Int) -> OriginalPosition? {
        let found: Segment? = decoded.withLock { state in
            if state == nil { state = Result { () throws(SourceMapError) in try decode() } }
            guard case .success(let mappings)? = state else { return nil }
            return mappings.segment(line: line, column: column)
        }
        guard let segment = found, segment.source >= 0 else { return nil }
        return OriginalPosition(source: sources[Int(segment.source)], line: Int(segment.originalLine), column: Int(segment.originalColumn),
                                name: segment.name >= 0 ? names[Int(segment.name)] : nil)
    }

    /// The first generated position (0-based) of original `line` in `source`: the lowest generated
    /// line and column among the mappings from that line, or, when none maps from it (a blank
    /// line, a comment, a type), from the nearest later line that has one, within `slack` lines:
    /// where a debugger sets a breakpoint asked for on that line. Nil when `source` is not one of
    /// ``sources`` or nothing maps there.
    ///
    /// ```swift
    /// map.generated(source: "/app/cart.ts", line: 5)   // (line: 26, column: 4)
    /// ```
    public func generated(source: String, line: Int, slack: Int = 20) -> (line: Int, column: Int)? {
        guard let index = sources.firstIndex(of: source) else { return nil }
        return decoded.withLock { state in
            if state == nil { state = Result { () throws(SourceMapError) in try decode() } }
            guard case .success(let mappings)? = state else { return nil }
            return mappings.firstGenerated(source: Int32(index), from: line, through: line + slack)
        }
    }

    /// Decodes `mappings` now rather than at the first lookup, and throws if it does not decode
    /// (lookups in such a map find nothing).
    public func decodeMappings() throws(SourceMapError) {
        let result = decoded.withLock { state in
            if state == nil { state = Result { () throws(SourceMapError) in try decode() } }
            return state!.map { _ in () }
        }
        try result.get()
    }

    // MARK: - Decoding

    /// One segment: its generated column and, when it has a source (4 or 5 fields), the source's
    /// index, the original line and column and the name's index (-1 when absent).
    struct Segment: Sendable {
        var generatedColumn: Int32
        var source: Int32
        var originalLine: Int32
        var originalColumn: Int32
        var name: Int32
    }

    /// Every segment in one array, each generated line's sorted by column; line `n` holds
    /// `segments[lineStarts[n] ..< lineStarts[n + 1]]`.
    struct Mappings: Sendable {
        var lineStarts: [Int32]
        var segments: [Segment]

        /// The lowest generated position of the lowest original line in `from...through` of
        /// `source` that any segment maps from.
        func firstGenerated(source: Int32, from: Int, through: Int) -> (line: Int, column: Int)? {
            var best: (original: Int32, line: Int, column: Int32)?
            for line in 0..<max(lineStarts.count - 1, 0) {
                for segment in segments[Int(lineStarts[line])..<Int(lineStarts[line + 1])]
                where segment.source == source && segment.originalLine >= from && segment.originalLine <= through {
                    if let found = best, (found.original, found.line, found.column) <= (segment.originalLine, line, segment.generatedColumn) { continue }
                    best = (segment.originalLine, line, segment.generatedColumn)
                }
            }
            return best.map { ($0.line, Int($0.column)) }
        }

        func segment(line: Int, column: Int) -> Segment? {
            guard line >= 0, line + 1 < lineStarts.count, column >= 0 else { return nil }
            var low = Int(lineStarts[line])
            var high = Int(lineStarts[line + 1])
            let start = low
            // The first segment past `column`; the one before it is the answer.
            while low < high {
                let middle = (low + high) / 2
                if Int(segments[middle].generatedColumn) <= column { low = middle + 1 } else { high = middle }
            }
            return low > start ? segments[low - 1] : nil
        }
    }

    private func decode() throws(SourceMapError) -> Mappings {
        try mappings.withUnsafeBufferPointer { bytes throws(SourceMapError) -> Mappings in
            try Base64VLQ.digits.withUnsafeBufferPointer { table throws(SourceMapError) -> Mappings in
                var decoder = MappingsDecoder(bytes: bytes, table: table, sourceCount: sources.count, nameCount: names.count)
                return try decoder.decode()
            }
        }
    }

    /// One pass over `mappings`: fields are deltas from the previous segment's (the generated
    /// column from the previous segment on the same line), so the decoder carries them along.
    private struct MappingsDecoder {
        let bytes: UnsafeBufferPointer<UInt8>
        let table: UnsafeBufferPointer<Int8>
        let sourceCount: Int
        let nameCount: Int
        var index = 0
        var line = 0
        var lineStart = 0
        var segments: [Segment] = []

        init(bytes: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<Int8>, sourceCount: Int, nameCount: Int) {
            self.bytes = bytes
            self.table = table
            self.sourceCount = sourceCount
            self.nameCount = nameCount
        }

        mutating func decode() throws(SourceMapError) -> Mappings {
            var lineStarts: [Int32] = [0]
            segments.reserveCapacity(bytes.count / 4)
            var column = 0, source = 0, originalLine = 0, originalColumn = 0, name = 0
            var sorted = true
            let semicolon = UInt8(ascii: ";"), comma = UInt8(ascii: ",")
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                if byte == semicolon || byte == comma {
                    index += 1
                    if byte == comma { continue }
                    if !sorted {
                        segments[lineStart...].sort { $0.generatedColumn < $1.generatedColumn }
                        sorted = true
                    }
                    lineStarts.append(Int32(segments.count))
                    lineStart = segments.count
                    column = 0
                    line += 1
                    continue
                }
                let previous = column
                column += try value()
                guard column >= 0 else { throw failure("the generated column is negative (\(column))") }
                if column < previous { sorted = false }
                var segment = Segment(generatedColumn: Int32(truncatingIfNeeded: column), source: -1, originalLine: 0, originalColumn: 0, name: -1)
                if !atSegmentEnd {
                    source += try value()
                    guard !atSegmentEnd else { throw failure("expected 1, 4 or 5 fields, got 2") }
                    originalLine += try value()
                    guard !atSegmentEnd else { throw failure("expected 1, 4 or 5 fields, got 3") }
                    originalColumn += try value()
                    guard source >= 0, source < sourceCount else { throw failure("source \(source) is not in sources (\(sourceCount))") }
                    guard originalLine >= 0, originalColumn >= 0 else { throw failure("the original line or column is negative") }
                    segment.source = Int32(truncatingIfNeeded: source)
                    segment.originalLine = Int32(truncatingIfNeeded: originalLine)
                    segment.originalColumn = Int32(truncatingIfNeeded: originalColumn)
                    if !atSegmentEnd {
                        name += try value()
                        guard name >= 0, name < nameCount else { throw failure("name \(name) is not in names (\(nameCount))") }
                        segment.name = Int32(truncatingIfNeeded: name)
                        guard atSegmentEnd else { throw failure("expected 1, 4 or 5 fields, got more") }
                    }
                }
                segments.append(segment)
            }
            if !sorted { segments[lineStart...].sort { $0.generatedColumn < $1.generatedColumn } }
            lineStarts.append(Int32(segments.count))
            return Mappings(lineStarts: lineStarts, segments: segments)
        }

        private var atSegmentEnd: Bool {
            @inline(__always) get {
                index == bytes.count || bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: ";")
            }
        }

        @inline(__always)
        private mutating func value() throws(SourceMapError) -> Int {
            do {
                return try Base64VLQ.next(in: bytes, at: &index, table: table)
            } catch {
                throw failure(error.message)
            }
        }

        private func failure(_ what: String) -> SourceMapError {
            SourceMapError(.mappings, "mappings: line \(line + 1), segment \(segments.count - lineStart + 1): \(what)")
        }
    }

    // MARK: - Sources

    /// `source` as a path (or URL) a person can open: see ``sources``.
    static func resolve(_ source: String, root: String?, location: String?) -> String {
        guard !source.isEmpty else { return "" }
        if let path = fileURLPath(source) { return normalized(path) }
        if hasScheme(source) { return source }
        var joined = source
        if let root, !root.isEmpty, !source.hasPrefix("/") {
            if let path = fileURLPath(root) {
                joined = path + (path.hasSuffix("/") ? "" : "/") + source
            } else if hasScheme(root) {
                return root + (root.hasSuffix("/") ? "" : "/") + source
            } else {
                joined = root + (root.hasSuffix("/") ? "" : "/") + source
            }
        }
        if joined.hasPrefix("/") { return normalized(joined) }
        guard let location, let slash = location.lastIndex(of: "/") else { return joined }
        let folder = location[...slash]
        return folder.hasPrefix("/") ? normalized(folder + joined) : String(folder) + joined
    }

    private static func fileURLPath(_ text: String) -> String? {
        guard text.hasPrefix("file://") else { return nil }
        let rest = text.dropFirst("file://".count)
        // file:///path, or file://localhost/path.
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        return String(rest[slash...])
    }

    /// `scheme:` as URLs start (RFC 3986), but not a Windows drive letter.
    private static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), text.distance(from: text.startIndex, to: colon) > 1 else { return false }
        return text[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
            && text.first!.isLetter
    }

    /// An absolute path with `.`, `..` and repeated slashes folded.
    private static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
