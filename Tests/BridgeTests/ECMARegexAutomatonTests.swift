@testable import Bridge
import HostTesting
import Testing

/// The automaton that runs `pattern` against Swift's `Regex` over the translated pattern, the path
/// every pattern took before it and the one patterns outside its subset still take.
@Suite("ECMA-262 patterns on the automaton")
struct ECMARegexAutomatonTests {
    /// Patterns of the subset, chosen where an automaton or a translation could go wrong.
    static let subset: [String] = [
        #"^[A-Z]{2}-[0-9]+$"#, #"^[a-z]+$"#, "a", "", #"[\--/]"#, "^$", "b*", "[^a]",
        // Nested and counted quantifiers, {0}, lazy ones.
        #"(a*)*b"#, #"^(a|b)*c$"#, #"^a{0}b$"#, #"^a{2,3}$"#, #"^(ab){1,}$"#, "a{3}", #"^a+?b*?c??$"#,
        #"^a{1,3}?b{2,}?$"#, #"^((a|b)(c|d)){2}$"#, #"^(?:a?){5}a{5}$"#, #"^[a-zA-Z0-9_-]{1,64}$"#,
        // Alternation inside groups, empty alternatives, anchors inside groups.
        #"^(?:ab|a)(?:bc|c)?$"#, #"^(a|)+$"#, "x|", #"^ab|cd|$"#, #"^a|b$"#, #"(^a|b)c"#, #"a(b$|c)"#,
        #"^(?:(?:a|b)c)+$"#, "(|a)b",
        // Classes: - and ], negation, escapes inside and out, [] and [^].
        #"^[\]a-]+$"#, #"^[-a-c]+$"#, #"^[^-]+$"#, #"^[^\d\s]+$"#, #"^[\s\S]$"#, #"^[\W]+$"#, #"^\D\W\S$"#,
        #"^[]$"#, #"^[^]$"#, #"a[]"#, #"^[.*+?^${}()|\[\]\\/]+$"#, #"^[\x00-\x1f]*$"#, #"^[\b]$"#,
        #"\d+\.\d*"#, #"^\w+@\w+\.com$"#, #"^\S+\s\S+$"#, #"^\s*$"#,
        // Escaped literals and character escapes.
        #"^\.\*\+\?\(\)\[\]\{\}\|\/\^\$\\$"#, #"^\x41\u00e9\t$"#, #"^\0$"#, #"^\n\r\v\f$"#,
        // Non-ASCII, line terminators and $ before a final newline.
        #"^.$"#, #"^é+ü?$"#, #"[α-ω]+"#, #"^[😀-🙏]$"#, "a$", #"^[^a-z]$"#,
    ]

    /// Scalars every random string is drawn from, besides those of its pattern.
    static let alphabet: [Unicode.Scalar] = [
        "a", "b", "c", "d", "x", "A", "Z", "0", "9", "-", "_", ".", " ", "\n", "\r", "\t", "\u{0}",
        "\u{8}", "\u{A0}", "\u{85}", "\u{2028}", "\u{FEFF}", "é", "ü", "λ", "😀",
    ]

    @Test("agrees with Regex on every pattern of the subset", arguments: subset)
    func agreesWithRegex(_ source: String) throws {
        let automaton = try #require(ECMARegexAutomaton(source), "outside the subset: \(source)")
        let regex = try SchemaPattern.regex(source)
        let scalars = Self.alphabet + source.unicodeScalars.filter { !Self.alphabet.contains($0) }
        var random = SplitMix64(seed: UInt64(truncatingIfNeeded: source.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
        var samples = ["", "\n", "a\n", "AB-12", "AB-12\n", "ab", "abc", "aaaaa", "abcabc", "\u{2028}", "😀\n"]
        for _ in 0..<600 {
            let length = Int(random.next() % 9)
            samples.append(String(String.UnicodeScalarView((0..<length).map { _ in scalars[Int(random.next() % UInt64(scalars.count))] })))
        }
        for sample in samples {
            let expected = ((try regex.firstMatch(in: sample)) ?? nil) != nil
            #expect(automaton.matches(sample) == expected, "\(source) against \(sample.unicodeScalars.map { "U+\(String($0.value, radix: 16))" })")
        }
    }

    @Test("a pattern outside the subset runs on Regex", arguments: [
        (#"^(a)\1$"#, "aa", "ab"), (#"a(?=b)"#, "ab", "ac"), (#"^a(?!b)"#, "ac", "ab"), (#"\bcat\b"#, "a cat.", "concat"),
        (#"\Bx"#, "ax", " x"), (#"^\p{L}+$"#, "héllo", "a1"), (#"^(?<year>\d{4})$"#, "2026", "26"), (#"^\u{1F600}$"#, "😀", "a"),
        (#"^\cJ$"#, "\n", "J"), (#"^\ud83d\ude00$"#, "😀", "\u{FFFD}"), ("^a{257}$", String(repeating: "a", count: 257), String(repeating: "a", count: 256)),
    ])
    func fallsBack(_ source: String, _ matching: String, _ failing: String) throws {
        #expect(ECMARegexAutomaton(source) == nil)
        let pattern = try SchemaPattern(source)
        #expect(pattern.matches(matching))
        #expect(!pattern.matches(failing))
    }

    @Test("a pattern that makes a backtracking engine take exponential time is one linear pass")
    func noCatastrophicBacktracking() throws {
        let automaton = try #require(ECMARegexAutomaton("^(a*)*b$"))
        #expect(!automaton.matches(String(repeating: "a", count: 10_000)))
        #expect(automaton.matches(String(repeating: "a", count: 10_000) + "b"))
    }

    @Test("a malformed pattern is refused with Regex's message, as before")
    func malformedIsRefused() {
        #expect(throws: (any Error).self) { try SchemaPattern("([a-z]") }
        #expect(throws: (any Error).self) { try SchemaPattern("a**") }
        #expect(throws: (any Error).self) { try SchemaPattern("[z-a]") }
    }
}
