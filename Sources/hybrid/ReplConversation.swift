import HybridHost
import SystemIO

/// What `hybrid repl` does with the lines it reads, from a terminal (``LineEditor``) or a pipe:
/// a REPL command (``ReplKeyword``: `.help`, `.editor`, `.load`, ...) is carried out here; any
/// other line goes to the session, and once it makes a whole input, its result is waited for.
final class ReplConversation {
    private let repl: ReplSession
    private let console: ReplConsole
    private let history: ReplHistory
    private let results: ReplResults
    /// Inputs handed to the session so far (each result is waited for by its number).
    private var inputs = 0
    /// The last input was left running (Ctrl-C while it ran): exiting must not wait for the JS thread.
    private var running = false

    init(repl: ReplSession, console: ReplConsole, history: ReplHistory, results: ReplResults) {
        self.repl = repl
        self.console = console
        self.history = history
        self.results = results
    }

    /// Lines from a terminal, edited in raw mode, until Ctrl-D, Ctrl-C twice or `.exit`. True when
    /// the last input was left running.
    func interact(_ editor: LineEditor) -> Bool {
        var warned = false
        while true {
            switch editor.read(prompt: repl.isCollecting ? "... " : "> ") {
            case .end, .finish:
                return running
            case .interrupt(let hadText):
                if hadText || repl.isCollecting {
                    repl.cancelInput()
                    warned = false
                } else if warned {
                    return running
                } else {
                    warnHowToExit()
                    warned = true
                }
            case .line(let line):
                warned = false
                if let keyword = ReplKeyword.parse(line, collecting: repl.isCollecting, terminal: true) {
                    if keyword != .exit { history.add(line) }
                    if keyword == .editor {
                        // Ctrl-C on an empty block with nothing collected is a first Ctrl-C, as in node.
                        if runEditor(editor) {
                            warnHowToExit()
                            warned = true
                        }
                    } else if !perform(keyword, editor: editor) {
                        return running
                    }
                    continue
                }
                if !repl.isCollecting && line.allSatisfy(\.isWhitespace) { continue }
                history.add(line)
                submit(line, keys: editor)
            }
        }
    }

    /// Lines from a pipe or a file, as they come, with no prompt and no echo, until the end of
    /// input or `.exit`.
    func readPiped() -> Bool {
        while let line = readLine(strippingNewline: true) {
            if let keyword = ReplKeyword.parse(line, collecting: repl.isCollecting, terminal: false) {
                if keyword != .exit { history.add(line) }
                guard perform(keyword, editor: nil) else { return false }
                continue
            }
            if !repl.isCollecting && line.allSatisfy(\.isWhitespace) { continue }
            history.add(line)
            submit(line, keys: nil)
        }
        inputs += 1
        if repl.finish(completion: results.completion(for: inputs)) { _ = results.wait(for: inputs) }
        return false
    }

    /// Carries out a command other than `.editor`; false for `.exit`. `editor`: at a terminal.
    private func perform(_ keyword: ReplKeyword, editor: LineEditor?) -> Bool {
        let terminal = editor != nil
        switch keyword {
        case .exit:
            return false
        case .break:
            repl.cancelInput()
        case .help:
            console.write(ReplKeyword.help(terminal: terminal), to: 1)
        case .invalid, .editor:
            console.write("Invalid REPL keyword\n", to: 1)
        case .load(let path):
            guard !path.isEmpty else {
                console.write("The \"file\" argument must be specified\n", to: 1)
                break
            }
            guard FileSystem.kind(of: path) != .directory else {
                console.write("Failed to load: \(path) is not a valid file\n", to: 1)
                break
            }
            guard let text = try? FileSystem.text(atPath: path) else {
                console.write("Failed to load: \(path)\n", to: 1)
                break
            }
            // At a terminal the file is shown as if it had been typed, as node shows it.
            if terminal { console.write(text + "\n", to: 1) }
            if text.contains(where: { !$0.isWhitespace }) { submit(text, keys: editor) }
        case .save(let path):
            guard !path.isEmpty else {
                console.write("The \"file\" argument must be specified\n", to: 1)
                break
            }
            do {
                try FileSystem.write(repl.transcript.joined(separator: "\n"), to: path)
                console.write("Session saved to: \(path)\n", to: 1)
            } catch {
                console.write("Failed to save: \(path)\n", to: 1)
            }
        }
        return true
    }

    /// `.editor`: lines (each starting with the last one's indentation) until Ctrl-D, then
    /// evaluated as one input; Ctrl-C drops them and whatever input was being continued. True when
    /// Ctrl-C came before anything was typed.
    private func runEditor(_ editor: LineEditor) -> Bool {
        console.write("// Entering editor mode (Ctrl+D to finish, Ctrl+C to cancel)\n", to: 1)
        var block: [String] = []
        var indent = ""
        while true {
            switch editor.read(prompt: "", text: indent, editorMode: true) {
            case .line(let line):
                block.append(line)
                history.add(line)
                indent = String(line.prefix { $0 == " " || $0 == "\t" })
            case .finish(let line):
                block.append(line)
                history.add(line)
                let text = block.joined(separator: "\n")
                if text.contains(where: { !$0.isWhitespace }) { submit(text, keys: editor) }
                return false
            case .interrupt(let hadText):
                let empty = !hadText && block.isEmpty && !repl.isCollecting
                repl.cancelInput()
                return empty
            case .end:
                return false
            }
        }
    }

    /// Hands `text` to the session and, once it makes a whole input, waits for its result. With
    /// `keys` (a terminal), Ctrl-C typed meanwhile stops waiting.
    private func submit(_ text: String, keys editor: LineEditor?) {
        inputs += 1
        guard repl.submit(text, completion: results.completion(for: inputs)) else { return }
        guard let editor else {
            _ = results.wait(for: inputs)
            return
        }
        if results.wait(for: inputs, keys: editor.typedAhead) != nil {
            running = false
        } else {
            console.write("Interrupted: the input goes on, and its result will not be shown.\n", to: 1)
            running = true
        }
    }

    private func warnHowToExit() {
        console.write("(To exit, press Ctrl+C again or Ctrl+D or type .exit)\n", to: 1)
    }
}
