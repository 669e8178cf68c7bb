/// One thing read from the terminal: a key, typed text, a bracketed paste, or a mouse report.
enum TerminalInput: Sendable, Equatable {
    case key(ViewKey)
    /// Printable characters typed (one read may hold several).
    case text(String)
    /// What was pasted between `ESC [ 200 ~` and `ESC [ 201 ~`, one edit.
    case paste(String)
    /// An SGR mouse report (`ESC [ < b ; x ; y M`), at the 0-based cell (`x`, `y`).
    case mouse(MouseReport)
}
