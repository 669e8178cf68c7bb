/// A box's border, drawn with the box-drawing characters of each style.
public enum BorderStyle: String, Sendable, CaseIterable {
    case none, single, double, rounded, heavy

    /// top-left, top-right, bottom-left, bottom-right, horizontal, vertical.
    var pieces: (tl: String, tr: String, bl: String, br: String, h: String, v: String) {
        switch self {
        case .none: (" ", " ", " ", " ", " ", " ")
        case .single: ("┌", "┐", "└", "┘", "─", "│")
        case .double: ("╔", "╗", "╚", "╝", "═", "║")
        case .rounded: ("╭", "╮", "╰", "╯", "─", "│")
        case .heavy: ("┏", "┓", "┗", "┛", "━", "┃")
        }
    }

    var width: Int { self == .none ? 0 : 1 }
    static let names = allCases.map(\.rawValue).joined(separator: ", ")
}
