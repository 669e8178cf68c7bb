/// A place in a file as stack traces print it, `url:line:column`, both numbers 1-based, the
/// column in UTF-16 code units: what JavaScriptCore reports in `fn@url:line:column` frames (its
/// `line` and `column` properties too) and what node prints after `at`.
public struct StackLocation: Sendable, Equatable, CustomStringConvertible {
    public var url: String
    public var line: Int
    public var column: Int

    public init(url: String, line: Int, column: Int) {
        self.url = url
        self.line = line
        self.column = column
    }

    /// `url:line:column`.
    public var description: String { "\(url):\(line):\(column)" }
}
