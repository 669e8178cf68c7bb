/// A source map that cannot be read, with a stable code and a message that says what was expected
/// and where (`mappings: line 3, segment 2: expected 1, 4 or 5 fields, got 2`).
public struct SourceMapError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Not JSON, or JSON that is not a source map object.
        case malformed
        /// `version` is not 3.
        case version
        /// An index map (`sections`): a map made of other maps, which bundlers write and a
        /// per-module transform does not. Not supported.
        case indexMap = "index_map"
        /// `mappings` does not decode: a character outside Base64, a value past 32 bits, a
        /// segment of 2 or 3 fields, an index past `sources` or `names`.
        case mappings
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
