import Glibc
import JSON
import Synchronization
import SystemIO

/// The view one app has mounted, its output and its events. Mount, update and simulate arrive on
/// the JS thread, keys on the key reader's thread, so the document is behind a lock; events reach
/// JS only through `nextEvent`.
// @unchecked: every mutable field (`document`, `output`, `colorMode`, `keyReaderRunning`, `lastWrite`) is read and written only under `lock`; `events` is Sendable.
final class ViewSession: @unchecked Sendable {
    private let lock = Mutex(())
    private var document: ViewDocument?
    private var output = ViewOutput.none
    private var colorMode = ColorMode.none
    private var keyReaderRunning = false
    /// The screen-reader stream, when the view is accessible (``AccessibilityStream``).
    private var a11y: AccessibilityStream?
    private var a11yFile: Int32 = -1
    let events = ViewEventQueue()
    /// Bytes written to the terminal by the last mount or update, for `view.update`'s answer.
    private(set) var lastWrite = 0

    struct Mounted {
        var width: Int
        var height: Int
        var nodes: Int
        var output: ViewOutput
        var text: String
    }

    func mount(spec: ViewSpec, data: JSONValue, width: Int?, height: Int?, output requested: String, nodeLimit: Int,
               accessible: Bool? = nil) throws(ViewDecodingError) -> Mounted {
        var output = Self.resolve(requested)
        let columns = width ?? (output == .terminal ? Self.terminalSize()?.columns : nil) ?? 80
        let rows = height ?? (output == .terminal ? Self.terminalSize()?.rows : nil)
        let document = try ViewDocument(spec: spec, data: data, width: columns, height: rows, nodeLimit: nodeLimit)
        events.clear()
        return lock.withLock { _ in
            self.document = document
            let speaksInstead = startAccessibility(accessible, output: output)
            var keysOnly = false
            if speaksInstead {
                // The lines replace the painted screen; keys are still read from a terminal.
                keysOnly = output == .terminal && isatty(STDIN_FILENO) == 1 && TerminalMode.enterKeysOnly()
                output = .none
            }
            self.output = output
            colorMode = ColorMode.detect { getenv($0).map { String(cString: $0) } }
            if output == .terminal {
                if !TerminalMode.isActive, !TerminalMode.enter() { self.output = .plain }
            }
            document.moveFocus()
            _ = document.repaint(document.focusedNode().map { [$0.frame] } ?? [])
            switch self.output {
            case .terminal:
                let frame = FrameWriter.full(document.canvas, mode: colorMode)
                TerminalMode.write(frame)
                lastWrite = frame.utf8.count
                startKeyReader()
            case .plain:
                let text = document.canvas.plainText
                TerminalMode.write(text)
                lastWrite = text.utf8.count
            case .none:
                lastWrite = 0
                if keysOnly { startKeyReader() }
            }
            a11y?.mounted(document)
            return Mounted(width: document.canvas.width, height: document.canvas.height, nodes: document.root.nodeCount,
                           // Speaking instead of painting, on a terminal, is still interactive.
                           output: keysOnly ? .terminal : self.output, text: document.canvas.plainText)
        }
    }

    enum Failure: Error {
        case notMounted
        case view(ViewDecodingError)
        case patch(JSONPatchError)
    }

    struct Updated {
        var changedNodes: Int
        var dirty: [Rect]
        var bytes: Int
    }

    func update(data: JSONValue?, patch: JSONValue?) throws(Failure) -> Updated {
        try lock.withLock { _ throws(Failure) -> Updated in
            guard let document else { throw .notMounted }
            let change: ViewDocument.Change
            if let patch {
                do { change = try document.update(patch: patch) } catch let error as ViewUpdateError {
                    switch error {
                    case .patch(let e): throw .patch(e)
                    case .view(let e): throw .view(e)
                    }
                } catch { throw .notMounted }
            } else {
                do { change = try document.update(data: data ?? .object([:])) } catch let error as ViewDecodingError {
                    throw .view(error)
                } catch { throw .notMounted }
            }
            let bytes = emit(change, document)
            a11y?.observe(document)
            return Updated(changedNodes: change.changedNodes, dirty: change.dirty, bytes: bytes)
        }
    }

    /// Writes what changed to the output; returns the bytes written.
    private func emit(_ change: ViewDocument.Change, _ document: ViewDocument) -> Int {
        guard let previous = change.previous else { return 0 }
        switch output {
        case .terminal:
            let text = change.resized ? FrameWriter.full(document.canvas, mode: colorMode)
                : FrameWriter.changes(from: previous, to: document.canvas, in: change.dirty, mode: colorMode)
            TerminalMode.write(text)
            lastWrite = text.utf8.count
        case .plain:
            guard previous != document.canvas else { return 0 }
            let text = "\n" + document.canvas.plainText
            TerminalMode.write(text)
            lastWrite = text.utf8.count
        case .none:
            lastWrite = 0
        }
        return lastWrite
    }

    /// The current frame.
    func frame() -> (text: String, styles: String, width: Int, height: Int, focus: String?)? {
        lock.withLock { _ in
            guard let document else { return nil }
            return (document.canvas.plainText, document.canvas.styleRuns, document.canvas.width, document.canvas.height, document.focusedNode()?.id)
        }
    }

    enum SimulateFailure: Error {
        case notMounted
        case noSuchNode(String)
        case noHandler(String)
        case notScrollable(String)
    }

    /// A press on the node with `id`, as if it had been focused and Enter pressed.
    func press(id: String) throws(SimulateFailure) -> JSONValue {
        let event = try lock.withLock { _ throws(SimulateFailure) -> JSONValue in
            guard let document else { throw .notMounted }
            guard let node = document.node(id: id) else { throw .noSuchNode(id) }
            guard let handler = node.handlers["press"] else { throw .noHandler(id) }
            return Self.pressEvent(node, handler: handler, document: document)
        }
        events.post(event)
        return event
    }

    /// A key, handled exactly as one typed in the terminal. Returns the event it caused, if any.
    @discardableResult
    func key(_ key: ViewKey) -> JSONValue? {
        let event: JSONValue? = lock.withLock { _ in
            guard let document else { return nil }
            let before = document.canvas
            var rects: [Rect] = []
            var event: JSONValue?
            switch key {
            case .tab, .shiftTab:
                rects = document.moveFocusIntoView(backward: key == .shiftTab)
            case .up, .down, .pageUp, .pageDown, .home, .end:
                rects = document.scroll(key: key) ?? []
            case .enter, .space:
                if let node = document.focusedNode(), let handler = node.handlers["press"] {
                    event = Self.pressEvent(node, handler: handler, document: document)
                }
            case .quit:
                event = ["type": "quit"]
                a11y?.unmounted()
            }
            writeChanges(from: before, document, rects)
            a11y?.observe(document)
            return event
        }
        if key == .quit { TerminalMode.restore() }
        if let event { events.post(event) }
        return event
    }

    /// The mouse wheel over cell (`x`, `y`), or over the scroll container with `id`: scrolls it by
    /// `delta` rows (down when positive). Returns the container's offset after, nil when the wheel
    /// was over no container.
    func wheel(id: String?, x: Int, y: Int, delta: Int) throws(SimulateFailure) -> Int? {
        try lock.withLock { _ throws(SimulateFailure) -> Int? in
            guard let document else { throw .notMounted }
            let before = document.canvas
            let container: ViewNode?
            let rects: [Rect]
            if let id {
                guard let node = document.node(id: id) else { throw .noSuchNode(id) }
                guard node.viewport != nil else { throw .notScrollable(id) }
                rects = document.scroll(node, by: delta)
                container = node
            } else {
                rects = document.wheel(x: x, y: y, delta: delta)
                container = document.scrollContainer(at: x, y)
            }
            writeChanges(from: before, document, rects)
            a11y?.observe(document)
            return container?.viewport?.offset
        }
    }

    /// Writes to a terminal the cells that differ in `rects` since `previous` (keys and the wheel
    /// write only there; plain output shows mounts and updates).
    private func writeChanges(from previous: TextCanvas, _ document: ViewDocument, _ rects: [Rect]) {
        guard output == .terminal, !rects.isEmpty else { return }
        let resized = previous.width != document.canvas.width || previous.height != document.canvas.height
        TerminalMode.write(resized ? FrameWriter.full(document.canvas, mode: colorMode)
            : FrameWriter.changes(from: previous, to: document.canvas, in: ViewDocument.merge(rects), mode: colorMode))
    }

    /// The screen-reader lines so far, when the view is accessible.
    func spoken() -> [String]? { lock.withLock { _ in a11y?.lines } }

    /// Starts the stream when the mount asks for it or `HYBRID_A11Y` is set (`hybrid run --a11y`).
    /// Returns whether its lines go to stdout in place of the painted screen: they do unless
    /// `HYBRID_A11Y` names a file (then the screen is painted as usual and the lines appended
    /// there), or the output is `none` (then they are only kept, for `view.frame`).
    private func startAccessibility(_ accessible: Bool?, output: ViewOutput) -> Bool {
        if a11yFile >= 0 { close(a11yFile); a11yFile = -1 }
        a11y = nil
        let setting = getenv("HYBRID_A11Y").map { String(cString: $0) } ?? ""
        let path = setting == "1" ? "" : setting
        guard accessible ?? !setting.isEmpty else { return false }
        if !path.isEmpty {
            a11yFile = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            let fd = a11yFile
            a11y = AccessibilityStream { line in
                guard fd >= 0 else { return }
                let bytes = Array((line + "\n").utf8)
                _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            }
            return false
        }
        let toStdout = output != .none
        a11y = AccessibilityStream { line in if toStdout { TerminalMode.write(line + "\n") } }
        return true
    }

    static func pressEvent(_ node: ViewNode, handler: String, document: ViewDocument) -> JSONValue {
        var event: JSONObject = ["type": "press", "handler": .string(handler)]
        if let id = node.id { event["id"] = .string(id) }
        if let key = document.itemKey(of: node) { event["key"] = .string(key) }
        return .object(event)
    }

    func unmount() {
        lock.withLock { _ in
            if document != nil { a11y?.unmounted() }
            document = nil
            if output == .terminal || TerminalMode.isActive { TerminalMode.restore() }
            output = .none
        }
        events.post(["type": "quit"], onlyIfWaiting: true)
        events.clear()
    }

    // MARK: terminal

    static func resolve(_ requested: String) -> ViewOutput {
        switch requested {
        case "terminal": .terminal
        case "plain": .plain
        case "none": .none
        default: isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1 ? .terminal : .plain
        }
    }

    static func terminalSize() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Reads raw keys on a thread of its own until `q` or the end of input.
    private func startKeyReader() {
        guard !keyReaderRunning else { return }
        keyReaderRunning = true
        DetachedThread.start { [self] in readKeys() }
    }

    private func readKeys() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while TerminalMode.isActive {
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { key(.quit); break }
            for key in ViewKey.parse(Array(buffer[0..<n])) {
                self.key(key)
                if key == .quit { break }
            }
        }
        lock.withLock { _ in keyReaderRunning = false }
    }
}
