/// How a node is laid out and drawn: the `style` object of a node.
public struct ViewStyle: Sendable, Hashable {
    public enum Direction: String, Sendable, CaseIterable { case row, column }
    public enum Align: String, Sendable, CaseIterable { case start, center, end, stretch }
    public enum Justify: String, Sendable, CaseIterable {
        case start, center, end, spaceBetween = "space-between", spaceAround = "space-around", spaceEvenly = "space-evenly"
    }
    public enum Overflow: String, Sendable, CaseIterable { case wrap, truncate }

    public var direction: Direction?
    public var gap = 0
    public var align: Align?
    public var alignSelf: Align?
    public var justify: Justify = .start
    public var grow = 0.0
    public var shrink = 1.0
    public var basis: Dimension = .auto
    public var width: Dimension = .auto
    public var height: Dimension = .auto
    public var minWidth: Dimension = .auto
    public var maxWidth: Dimension = .auto
    public var minHeight: Dimension = .auto
    public var maxHeight: Dimension = .auto
    public var padding = Edges.zero
    public var margin = Edges.zero
    public var border = BorderStyle.none
    public var borderColor: TerminalColor?
    public var background: TerminalColor?
    public var color: TerminalColor?
    public var bold = false
    public var italic = false
    public var underline = false
    public var dim = false
    public var inverse = false
    public var overflow: Overflow = .wrap

    public init() {}

    /// Properties that change only the paint, not the layout.
    func samePaintFreeLayout(as other: ViewStyle) -> Bool {
        var a = self, b = other
        for s in [\ViewStyle.bold, \.italic, \.underline, \.dim, \.inverse] {
            a[keyPath: s] = false
            b[keyPath: s] = false
        }
        a.borderColor = nil; b.borderColor = nil
        a.background = nil; b.background = nil
        a.color = nil; b.color = nil
        return a == b
    }
}
