/// Padding or margin, in cells: `1`, `[vertical, horizontal]` or `[top, right, bottom, left]`.
public struct Edges: Sendable, Hashable {
    public var top = 0, right = 0, bottom = 0, left = 0

    public init(top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    public static let zero = Edges()
    var horizontal: Int { left + right }
    var vertical: Int { top + bottom }
}
