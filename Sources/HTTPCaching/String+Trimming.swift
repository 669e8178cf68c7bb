extension String {
    /// Without the leading and trailing characters found in `set` (a header value's spaces,
    /// tabs and quotes), as Foundation's `trimmingCharacters(in:)` with a set spelled as a string.
    package func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let first = s.first, set.contains(first) { s = s.dropFirst() }
        while let last = s.last, set.contains(last) { s = s.dropLast() }
        return String(s)
    }
}
