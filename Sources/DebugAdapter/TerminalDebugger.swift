import Glibc
import JSON
import SystemIO

/// `hybrid debug APP`: a debugger in the terminal, as `node inspect` is, for people without an
/// editor. It is a DAP client of the same adapter the editors use, served in this process over
/// two pipes: what it shows is what an editor would.
///
/// ```
/// debug> break main.ts:16
/// debug> cont
/// break in main.ts:16
/// debug> print items.length
/// ```
public enum TerminalDebugger {
    /// What the app is and how it runs, as `launch` takes it.
    public struct Launch: Sendable {
        public var program: String
        public var arguments: [String] = []
        public var dataDirectory: String?
        public var grants: [String] = []

        public init(program: String, arguments: [String] = [], dataDirectory: String? = nil, grants: [String] = []) {
            self.program = program
            self.arguments = arguments
            self.dataDirectory = dataDirectory
            self.grants = grants
        }
    }

    static let help = """
        break FILE:LINE (b)   set a breakpoint (FILE relative to the app's folder)
        clear FILE:LINE       remove it
        cont (c)              run until the next breakpoint or the end
        next (n)              step over      step (s)   step into      out (o)   step out
        pause                 stop the running app
        bt                    the call stack
        print EXPR (p)        evaluate in the paused frame (or the app's global scope)
        watch EXPR            show EXPR at every stop    unwatch EXPR
        list [N]              N lines (5) around the current one
        quit (q)              end the app and the debugger

        """

    /// Runs the app under the debugger until it ends or `quit`; the app's exit status.
    public static func run(_ launch: Launch, executable: String) async -> Int32 {
        var toAdapter: [Int32] = [0, 0], fromAdapter: [Int32] = [0, 0]
        guard pipe(&toAdapter) == 0, pipe(&fromAdapter) == 0 else {
            StandardStreams.write("debug: cannot make the adapter's pipes\n", to: 2)
            return 1
        }
        let (adapterInput, adapterOutput, requestsOut) = (toAdapter[0], fromAdapter[1], toAdapter[1])
        Task { await DebugAdapterServer.serve(input: adapterInput, output: adapterOutput, executable: executable) }
        let (inputs, sink) = AsyncStream.makeStream(of: Input.self)
        SpawnedProcess.readAsItArrives(fromAdapter[0], chunk: { [reader = Locked(DAPFrameReader())] bytes in
            reader.withLock { reader in
                reader.append(bytes)
                while let message = try? reader.next() {
                    if let object = message.objectValue { sink.yield(.message(object)) }
                }
            }
        }, end: { sink.yield(.adapterEnded) })
        DetachedThread.start {
            while let line = readLine(strippingNewline: true) { sink.yield(.line(line)) }
            sink.yield(.line(nil))
        }
        let session = TerminalSession(launch: launch, send: { text in StandardStreams.write(text, to: requestsOut) })
        session.start()
        for await input in inputs {
            if session.handle(input) { break }
        }
        close(requestsOut)
        return session.exitStatus
    }

    enum Input: Sendable {
        case message(JSONObject)
        case line(String?)
        case adapterEnded
    }
}

/// The terminal debugger's state: what was asked of the adapter and why, where the app stopped,
/// the breakpoints and watches. Used from one task.
final class TerminalSession {
    private let launch: TerminalDebugger.Launch
    private let send: (String) -> Void
    private var seq = 0
    /// Why each request went out, by its seq.
    private var purposes: [Int: Purpose] = [:]
    private var breakpoints: [String: [Int]] = [:]
    private var watches: [String] = []
    private var location: (frameId: Int, path: String, line: Int)?
    private(set) var exitStatus: Int32 = 0
    private var ended = false

    enum Purpose {
        case stopLocation
        case backtrace
        case print
        case watch(String)
        case breakpoints(String)
        case plain
    }

    init(launch: TerminalDebugger.Launch, send: @escaping (String) -> Void) {
        self.launch = launch
        self.send = send
    }

    /// The app's folder: where FILE of `break FILE:LINE` is looked for first.
    private var appFolder: String {
        let program = FileSystem.absolute(launch.program)
        return FileSystem.kind(of: program) == .directory ? program : FileSystem.directory(of: program)
    }

    func start() {
        request("initialize", ["adapterID": "hybrid", "clientID": "hybrid-debug", "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"])
        var arguments: JSONObject = ["program": .string(FileSystem.absolute(launch.program)), "stopOnEntry": true,
                                     "args": .array(launch.arguments.map { .string($0) }), "grants": .array(launch.grants.map { .string($0) })]
        if let dataDirectory = launch.dataDirectory { arguments["dataDir"] = .string(dataDirectory) }
        request("launch", arguments)
    }

    /// Handles one input; true when the debugger is done.
    func handle(_ input: TerminalDebugger.Input) -> Bool {
        switch input {
        case .message(let message):
            received(message)
        case .line(let line?):
            command(line.trimmingPrefix(while: { $0 == " " }))
        case .line(nil):
            request("disconnect", ["terminateDebuggee": true])
        case .adapterEnded:
            return true
        }
        return ended
    }

    private func request(_ command: String, _ arguments: JSONObject = [:], purpose: Purpose = .plain) {
        seq += 1
        purposes[seq] = purpose
        send(DAPFraming.frame(["seq": .number(Double(seq)), "type": "request", "command": .string(command), "arguments": .object(arguments)]))
    }

    private func prompt() {
        StandardStreams.write("debug> ", to: 1)
    }

    private func say(_ text: String) {
        StandardStreams.write(text + "\n", to: 1)
    }

    // MARK: Commands

    private func command(_ line: Substring) {
        let word = line.prefix { $0 != " " }
        let rest = String(line.dropFirst(word.count).trimmingPrefix(while: { $0 == " " }))
        switch word {
        case "":
            prompt()
        case "break", "b", "sb":
            setBreakpoint(rest, adding: true)
        case "clear", "cb":
            setBreakpoint(rest, adding: false)
        case "cont", "c":
            request("continue", ["threadId": 1])
        case "next", "n":
            request("next", ["threadId": 1])
        case "step", "s":
            request("stepIn", ["threadId": 1])
        case "out", "o":
            request("stepOut", ["threadId": 1])
        case "pause":
            request("pause", ["threadId": 1])
        case "bt", "backtrace":
            request("stackTrace", ["threadId": 1], purpose: .backtrace)
        case "print", "p", "exec":
            evaluate(rest, purpose: .print)
        case "watch":
            watches.append(rest)
            prompt()
        case "unwatch":
            watches.removeAll { $0 == rest }
            prompt()
        case "list", "l":
            list(around: Int(rest) ?? 5)
            prompt()
        case "quit", "q", ".exit", "kill":
            request("disconnect", ["terminateDebuggee": true])
        case "help", "h":
            StandardStreams.write(TerminalDebugger.help, to: 1)
            prompt()
        default:
            say("unknown command \"\(word)\" (help lists them)")
            prompt()
        }
    }

    private func evaluate(_ expression: String, purpose: Purpose) {
        var arguments: JSONObject = ["expression": .string(expression), "context": "repl"]
        if let location { arguments["frameId"] = .number(Double(location.frameId)) }
        request("evaluate", arguments, purpose: purpose)
    }

    /// `FILE:LINE`: FILE is looked for in the app's folder, then the working folder.
    private func setBreakpoint(_ text: String, adding: Bool) {
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]), line > 0 else {
            say("expected FILE:LINE, as in break main.ts:12")
            prompt()
            return
        }
        let file = String(text[..<colon])
        let candidates = file.hasPrefix("/") ? [file] : [appFolder + "/" + file, FileSystem.absolute(file)]
        guard let found = candidates.first(where: { FileSystem.kind(of: $0) == .file }) else {
            say("no file \(file) in \(appFolder) or here")
            prompt()
            return
        }
        let path = FileSystem.realPath(found) ?? found
        var lines = breakpoints[path] ?? []
        if adding { lines.append(line) } else { lines.removeAll { $0 == line } }
        breakpoints[path] = lines
        request("setBreakpoints", ["source": ["path": .string(path)], "breakpoints": .array(lines.map { ["line": .number(Double($0))] })],
                purpose: .breakpoints(path))
    }

    private func list(around count: Int) {
        guard let location, let text = try? FileSystem.text(atPath: location.path) else {
            say("no source to list (the app is running, or its file cannot be read)")
            return
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let first = max(location.line - count, 1), last = min(location.line + count, lines.count)
        guard first <= last else { return }
        for number in first...last {
            say("\(number == location.line ? ">" : " ")\(String(number).leftPadded(to: 4)) \(lines[number - 1])")
        }
    }

    private func shortPath(_ path: String) -> String {
        path.hasPrefix(appFolder + "/") ? String(path.dropFirst(appFolder.count + 1)) : path
    }

    // MARK: Adapter messages

    private func received(_ message: JSONObject) {
        let body = message["body"]?.objectValue ?? [:]
        if message["type"]?.stringValue == "event" {
            switch message["event"]?.stringValue {
            case "initialized":
                request("setExceptionBreakpoints", ["filters": ["uncaught"]])
                request("configurationDone")
            case "output":
                let text = body["output"]?.stringValue ?? ""
                StandardStreams.write(text, to: body["category"]?.stringValue == "stderr" ? 2 : 1)
            case "stopped":
                let reason = body["reason"]?.stringValue ?? "pause"
                if reason == "exception" { say("Uncaught \(body["text"]?.stringValue ?? "exception")") }
                request("stackTrace", ["threadId": 1, "levels": 1], purpose: .stopLocation)
            case "continued":
                location = nil
            case "exited":
                exitStatus = Int32(body["exitCode"]?.intValue ?? 0)
                say("app exited with status \(exitStatus)")
            case "terminated":
                request("disconnect", [:])
            default:
                break
            }
            return
        }
        guard message["type"]?.stringValue == "response", let seq = message["request_seq"]?.intValue else { return }
        let purpose = purposes.removeValue(forKey: seq) ?? .plain
        let command = message["command"]?.stringValue ?? ""
        guard message["success"]?.boolValue == true else {
            say(message["message"]?.stringValue ?? "\(command) failed")
            if command == "launch" { request("disconnect", [:]) } else { prompt() }
            return
        }
        switch purpose {
        case .stopLocation:
            guard let frame = body["stackFrames"]?[0]?.objectValue, let path = frame["source"]?["path"]?.stringValue,
                  let line = frame["line"]?.intValue, let id = frame["id"]?.intValue else { return }
            location = (id, path, line)
            say("break in \(shortPath(path)):\(line)")
            list(around: 2)
            if watches.isEmpty { prompt() }
            for expression in watches { evaluate(expression, purpose: .watch(expression)) }
        case .backtrace:
            for (index, frame) in (body["stackFrames"]?.arrayValue ?? []).enumerated() {
                say("#\(index) \(frame["name"]?.stringValue ?? "") \(shortPath(frame["source"]?["path"]?.stringValue ?? "")):\(frame["line"]?.intValue ?? 0)")
            }
            prompt()
        case .print:
            say(body["result"]?.stringValue ?? "")
            prompt()
        case .watch(let expression):
            say("  \(expression) = \(body["result"]?.stringValue ?? "")")
            if case .watch(let last)? = watches.last.map(Purpose.watch), last == expression { prompt() }
        case .breakpoints(let path):
            for breakpoint in (body["breakpoints"]?.arrayValue ?? []).compactMap(\.objectValue) {
                let line = breakpoint["line"]?.intValue ?? 0
                let state = breakpoint["verified"]?.boolValue == true ? "" : " (pending: \(breakpoint["message"]?.stringValue ?? "not placed yet"))"
                say("breakpoint \(breakpoint["id"]?.intValue ?? 0) at \(shortPath(path)):\(line)\(state)")
            }
            prompt()
        case .plain:
            if command == "disconnect" { ended = true }
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
