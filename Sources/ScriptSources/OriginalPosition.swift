/// Where a generated position came from, in the source map's own terms: `line` and `column` are
/// 0-based (the first line is 0), and `column` counts UTF-16 code units, as `mappings` does.
/// ``StackLocation`` is the same place as a stack trace prints it, 1-based.
public struct OriginalPosition: Sendable, Equatable, CustomStringConvertible {
    /// The original file, resolved against the map's location and `sourceRoot` (``SourceMap/sources``).
    public var source: String
    public var line: Int
    public var column: Int
    /// The original name at that position (a function or variable renamed by the transform).
    public var name: String?

    public init(source: String, line: Int, column: Int, name: String? = nil) {
        self.source = source
        self.line = line
        self.column = column
        self.name = name
    }

    public var description: String { "\(source) line \(line) column \(column) (0-based)" }
}
