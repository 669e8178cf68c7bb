/// A POSIX locale name turned into a BCP 47 language tag, as Capacitor's `Device.getLanguageTag`
/// returns one: `device.languageTag`, and the web platform's `navigator.language`.
///
/// The rule, in order:
/// 1. The codeset (`.UTF-8`) is dropped; the modifier (`@latin`) is kept only where it names a
///    script or a registered variant: `@latin` → `Latn`, `@cyrillic` → `Cyrl`, `@devanagari` →
///    `Deva`, `@valencia` → variant `valencia`; others (`@euro`, `@saaho`) are dropped.
/// 2. `C`, `POSIX` and an empty name become `en-US`: ICU maps them to `en_US_POSIX`, and the C
///    locale's messages are American English.
/// 3. The language is lowercased and the region uppercased: `de_DE` → `de-DE`; the retired codes
///    `iw`, `in`, `ji` become `he`, `id`, `yi`, as Java's `Locale.toLanguageTag` does.
/// 4. A name that is not `language[_REGION]` (two or three letters, then two letters or three
///    digits) also becomes `en-US`: glibc falls back to the C locale for a name it cannot load.
///
/// ```swift
/// LanguageTag.from(locale: "en_US.UTF-8")   // "en-US"
/// LanguageTag.from(locale: "sr_RS@latin")   // "sr-Latn-RS"
/// LanguageTag.from(locale: "C")             // "en-US"
/// ```
public enum LanguageTag {
    /// The tag for the C locale and for names that cannot be read.
    public static let fallback = "en-US"

    private static let scripts: [Substring: String] = ["latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva"]
    private static let variants: Set<Substring> = ["valencia"]
    private static let retiredLanguages: [String: String] = ["iw": "he", "in": "id", "ji": "yi"]

    public static func from(locale: String) -> String {
        var name = Substring(locale)
        var modifier: Substring = ""
        if let at = name.firstIndex(of: "@") {
            modifier = name[name.index(after: at)...]
            name = name[..<at]
        }
        if let dot = name.firstIndex(of: ".") { name = name[..<dot] }
        if name.isEmpty || name == "C" || name == "POSIX" { return fallback }

        // glibc writes `ll_CC`; accept `ll-CC` too, since a tag is sometimes given where a name belongs.
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard (1...2).contains(parts.count), isLanguage(parts[0]) else { return fallback }
        let language = parts[0].lowercased()
        var subtags = [retiredLanguages[language] ?? language]
        if let script = scripts[modifier.lowercased()[...]] { subtags.append(script) }
        if parts.count == 2 {
            guard let region = region(parts[1]) else { return fallback }
            subtags.append(region)
        }
        if variants.contains(modifier.lowercased()[...]) { subtags.append(modifier.lowercased()) }
        return subtags.joined(separator: "-")
    }

    private static func isLanguage(_ part: Substring) -> Bool {
        (2...3).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isLetter }
    }

    private static func region(_ part: Substring) -> String? {
        if part.count == 2 && part.allSatisfy({ $0.isASCII && $0.isLetter }) { return part.uppercased() }
        if part.count == 3 && part.allSatisfy({ $0.isASCII && $0.isNumber }) { return String(part) }
        return nil
    }
}
