/// The keys the interactive mode understands, from raw terminal input or `view.simulate`.
public enum ViewKey: String, Sendable, CaseIterable {
    case tab, shiftTab = "shift-tab", enter, space, quit = "q"
    /// Scrolling keys: they act on the scroll container that has focus or holds it. Home and end
    /// move an input's cursor when an input has focus.
    case up, down, pageUp = "page-up", pageDown = "page-down", home, end
    /// Editing keys, for the focused input: the cursor by a character or a word (Ctrl or Alt with
    /// an arrow), and deleting before or after it.
    case left, right, wordLeft = "word-left", wordRight = "word-right", backspace, delete

    /// Reads keys from a chunk of raw input bytes (a space and `q` typed outside an input are keys).
    static func parse(_ bytes: [UInt8]) -> [ViewKey] {
        var parser = TerminalInputParser()
        return parser.feed(bytes).flatMap { input -> [ViewKey] in
            switch input {
            case .key(let key): [key]
            case .text(let text): text.compactMap { keyOutsideInput($0) }
            case .paste, .mouse: []
            }
        }
    }

    /// What a character typed when no input has focus means: a space presses, `q` quits.
    static func keyOutsideInput(_ character: Character) -> ViewKey? {
        switch character {
        case " ": .space
        case "q": .quit
        default: nil
        }
    }

    /// The edit this key makes in a focused input, if it makes one.
    var edit: InputEditor.Edit? {
        switch self {
        case .left: .left
        case .right: .right
        case .wordLeft: .wordLeft
        case .wordRight: .wordRight
        case .backspace: .backspace
        case .delete: .delete
        case .home: .home
        case .end: .end
        case .space: .insert(" ")
        default: nil
        }
    }
}
