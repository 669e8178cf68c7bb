// The Views module: JSON-described view trees, laid out with flexbox semantics on integer
// terminal cells and rendered to a cell canvas, then to plain text or ANSI escapes; `view.*` is its
// bridge target. It must never call into JS on its own (events wait for `view.nextEvent`), never
// import another service, and never leave the terminal in raw mode.

/// The node types a view may use.
public enum ViewKind: String, Sendable, CaseIterable {
    case stack, box, text, button, list, divider, spacer, input, scroll

    /// Whether the node lays out children.
    var isContainer: Bool {
        switch self {
        case .stack, .box, .list, .scroll: true
        default: false
        }
    }

    static let names = allCases.map(\.rawValue).joined(separator: ", ")
}
