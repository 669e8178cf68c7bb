/// A `pattern` (or `patternProperties` key): an ECMA-262 regular expression, as JSON Schema says,
/// compiled once with the schema.
///
/// It is not run by JavaScriptCore: validation runs on whatever thread the bridge is on, and in
/// `hybrid contracts check` with no engine at all. Matching is an unanchored search over Unicode
/// scalars (code points), as ECMA-262 with the `u` flag searches: with the default
/// grapheme-cluster semantics `.` would swallow "e" + U+0301 whole.
///
/// Patterns without backreferences or lookaround (what contracts write) run on an
/// ``ECMARegexAutomaton``, a few times faster than Swift's `Regex`; the others are translated into
/// `Regex` syntax of the same meaning (``ECMARegexTranslator``). Every pattern goes through the
/// translation and `Regex`'s parser, so a malformed one is refused with the same message whichever
/// runs it.
///
/// `Regex` is not `Sendable`, but it is an immutable value whose lazily built matching program is
/// published atomically by the standard library, and `prepare` builds that program up front, so
/// sharing one across threads is safe.
// @unchecked: immutable after init; `Regex` is an immutable value whose matching program `init` builds up front (see above), and `ECMARegexAutomaton` is read-only.
final class SchemaPattern: @unchecked Sendable {
    let source: String
    /// What matches when the pattern is in its subset. Beside `regex` rather than in an enum with
    /// it: `Regex` is a type of another module, of a layout unknown here, and an enum holding one
    /// costs every match a trip through value witnesses.
    private let automaton: ECMARegexAutomaton?
    private let regex: Regex<AnyRegexOutput>

    /// Throws when `source` is not an ECMA-262 regular expression, or one Swift's engine cannot run.
    init(_ source: String) throws {
        self.source = source
        regex = try Self.regex(source)
        automaton = ECMARegexAutomaton(source)
        if automaton == nil {
            // Builds the matching program now rather than on the first (possibly concurrent) call.
            _ = matches("")
        }
    }

    /// `source` as Swift `Regex` runs it: the matcher for patterns outside the automaton's subset.
    static func regex(_ source: String) throws -> Regex<AnyRegexOutput> {
        try Regex(try ECMARegexTranslator.translate(source))
            .matchingSemantics(.unicodeScalar)
            .asciiOnlyWordCharacters()
            .wordBoundaryKind(.simple)
    }

    func matches(_ string: String) -> Bool {
        if let automaton { return automaton.matches(string) }
        return regexMatches(string)
    }

    /// Out of line: inlined, `Regex`'s generic match result would cost every caller a metadata
    /// lookup and a stack allocation on entry, automaton or not.
    @inline(never)
    private func regexMatches(_ string: String) -> Bool {
        ((try? regex.firstMatch(in: string)) ?? nil) != nil
    }
}
