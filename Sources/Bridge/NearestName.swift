/// The known name a misspelt one most likely meant, for an error that says "did you mean ...": an
/// unexpected property in a call's params, an unknown key in app.json. It is the one fewest
/// single-character edits away (case ignored), if it is close enough to be a typo: at most a
/// third of the longer name's length, at most 3, and fewer than either name's length (any
/// one-letter name is one edit from any other).
///
/// ```swift
/// NearestName.of("grant", among: ["name", "grants", "main"])   // "grants"
/// NearestName.of("colour", among: ["name", "grants"])          // nil
/// ```
public enum NearestName {
    public static func of(_ name: String, among known: [String]) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        for candidate in known {
            let other = Array(candidate.lowercased().unicodeScalars)
            let distance = editDistance(typed, other)
            let allowed = min(3, max(1, max(typed.count, other.count) / 3))
            guard distance <= allowed, distance < min(typed.count, other.count), distance < (best?.distance ?? .max) else { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// Edits between two names: insertions, deletions, substitutions, and a swap of two
    /// neighbours counted as one (`mian` is one edit from `main`), a row at a time.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
