/// A `pattern` keyword's regular expression, compiled once with the schema.
///
/// Matching is an unanchored search over Unicode scalars (code points), as jsonschema's `re.search`
/// does: with the default grapheme-cluster semantics `.` would swallow "e" + U+0301 whole.
///
/// `Regex` is not `Sendable`, but it is an immutable value whose lazily built matching program is
/// published atomically by the standard library, and `prepare` builds that program up front, so
/// sharing one across threads is safe.
final class SchemaPattern: @unchecked Sendable {
    let source: String
    private let regex: Regex<AnyRegexOutput>

    /// Throws the regex parser's error when `source` is not a regular expression Swift understands.
    init(_ source: String) throws {
        self.source = source
        regex = try Regex(source).matchingSemantics(.unicodeScalar)
        // Builds the matching program now rather than on the first (possibly concurrent) call.
        _ = matches("")
    }

    func matches(_ string: String) -> Bool {
        ((try? regex.firstMatch(in: string)) ?? nil) != nil
    }
}
