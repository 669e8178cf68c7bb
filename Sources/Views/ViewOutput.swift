/// Where a mounted view is drawn.
public enum ViewOutput: String, Sendable {
    /// The terminal, interactively: alternate screen, raw keys, only changed cells redrawn.
    case terminal
    /// Plain text frames on stdout, one after the mount and one after each update that changes it.
    case plain
    /// Nowhere: tests read frames through `view.frame`.
    case none
}
