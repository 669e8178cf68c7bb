/// A `pattern` (or `patternProperties` key): an ECMA-262 regular expression, as JSON Schema says,
/// compiled once with the schema.
///
/// ECMA-262 syntax is translated into Swift `Regex` syntax with the same meaning
/// (``ECMARegexTranslator``) rather than run by JavaScriptCore: validation runs on whatever thread
/// the bridge is on, and in `hybrid contracts check` with no engine at all. Matching is an
/// unanchored search over Unicode scalars (code points), as ECMA-262 with the `u` flag searches:
/// with the default grapheme-cluster semantics `.` would swallow "e" + U+0301 whole.
///
/// `Regex` is not `Sendable`, but it is an immutable value whose lazily built matching program is
/// published atomically by the standard library, and `prepare` builds that program up front, so
/// sharing one across threads is safe.
final class SchemaPattern: @unchecked Sendable {
    let source: String
    private let regex: Regex<AnyRegexOutput>

    /// Throws when `source` is not an ECMA-262 regular expression, or one Swift's engine cannot run.
    init(_ source: String) throws {
        self.source = source
        regex = try Regex(try ECMARegexTranslator.translate(source))
            .matchingSemantics(.unicodeScalar)
            .asciiOnlyWordCharacters()
            .wordBoundaryKind(.simple)
        // Builds the matching program now rather than on the first (possibly concurrent) call.
        _ = matches("")
    }

    func matches(_ string: String) -> Bool {
        ((try? regex.firstMatch(in: string)) ?? nil) != nil
    }
}
