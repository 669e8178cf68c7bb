import Glibc
import Synchronization
import SystemIO

/// The app a `launch` request starts: `hybrid run PROGRAM --inspect-brk=0 ...` as a child, whose
/// first line on stderr says where its inspector listens. Its standard output and error are
/// handed to `output` as they come (the editor's debug console), its input is /dev/null (the
/// adapter's own standard input is the editor's channel).
final class LaunchedApp: Sendable {
    let process: SpawnedProcess
    private let state = Mutex(State())

    private struct State {
        var stderrLine: [UInt8] = []
        var url: String?
        /// The URL was found, or standard error ended without it.
        var urlSettled = false
        var urlWaiter: CheckedContinuation<String?, Never>?
        var skipped: [String] = []
        var openStreams = 2
        var streamsWaiter: CheckedContinuation<Void, Never>?
    }

    /// The line `hybrid run --inspect` starts its standard error with.
    static let listeningPrefix = "Debugger listening on "

    /// What `hybrid run` is given for a launch request's fields (`program`, `args`, `dataDir`,
    /// `grants`), inspector first.
    static func runArguments(program: String, arguments: [String], dataDirectory: String?, grants: [String]) -> [String] {
        var result = ["run", program, "--inspect-brk=0"]
        if let dataDirectory { result += ["--data-dir", dataDirectory] }
        for grant in grants { result += ["--grant", grant] }
        if !arguments.isEmpty { result += ["--"] + arguments }
        return result
    }

    /// `hybrid test` for a launch request's fields: its files run one after another, each a thread.
    static func testArguments(program: String, arguments: [String], grants: [String]) -> [String] {
        var result = ["test", program, "--inspect-brk=0"]
        for grant in grants { result += ["--grant", grant] }
        for argument in arguments { result += ["--arg", argument] }
        return result
    }

    /// A test file's name, as `hybrid test` finds them in a folder.
    static func isTestFile(_ path: String) -> Bool {
        ["js", "ts", "mjs", "mts", "cjs", "cts"].contains { path.hasSuffix(".test." + $0) }
    }

    init(executable: String, arguments: [String], directory: String?, output: @escaping @Sendable (_ category: String, _ text: String) -> Void) throws(DebugAdapterError) {
        do {
            process = try SpawnedProcess(executable, arguments, directory: directory, input: .null, output: .pipe, error: .pipe)
        } catch {
            throw DebugAdapterError(.launch, "cannot start the app: \(error)")
        }
        SpawnedProcess.readAsItArrives(process.output!, chunk: { bytes in
            output("stdout", String(decoding: bytes, as: UTF8.self))
        }, end: { [self] in streamEnded() })
        SpawnedProcess.readAsItArrives(process.errorOutput!, chunk: { [self] bytes in
            if let text = stderrChunk(bytes), !text.isEmpty { output("stderr", text) }
        }, end: { [self] in
            let pending = state.withLock { state in
                defer { state.stderrLine = [] }
                return state.url == nil ? String(decoding: state.stderrLine, as: UTF8.self) : ""
            }
            if !pending.isEmpty { output("stderr", pending) }
            announce(nil)
            streamEnded()
        })
    }

    /// Waits for the inspector's URL; nil when the app ended (or closed its standard error)
    /// without printing one, then ``skippedLines`` says what it printed instead.
    func inspectorURL() async -> String? {
        await withCheckedContinuation { continuation in
            let settled: String?? = state.withLock { state in
                if state.urlSettled { return .some(state.url) }
                state.urlWaiter = continuation
                return nil
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }

    /// The standard error lines that came before the inspector's (or instead of it).
    var skippedLines: [String] { state.withLock { $0.skipped } }

    /// Waits until both of the app's output streams have ended (all its output relayed).
    func outputEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.openStreams > 0 { state.streamsWaiter = continuation }
                return state.openStreams == 0
            }
            if done { continuation.resume() }
        }
    }

    /// Standard error's text to relay; until the inspector's line has been seen, lines are held
    /// and read for it.
    private func stderrChunk(_ bytes: ArraySlice<UInt8>) -> String? {
        let (relay, found): (String?, String?) = state.withLock { state in
            guard state.url == nil else { return (String(decoding: bytes, as: UTF8.self), nil) }
            state.stderrLine += bytes
            var relayed = ""
            while let newline = state.stderrLine.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: state.stderrLine[..<newline], as: UTF8.self)
                state.stderrLine.removeSubrange(...newline)
                if line.hasPrefix(Self.listeningPrefix) {
                    let url = String(line.dropFirst(Self.listeningPrefix.count))
                    state.url = url
                    relayed += String(decoding: state.stderrLine, as: UTF8.self)
                    state.stderrLine = []
                    return (relayed, url)
                }
                state.skipped.append(line)
                relayed += line + "\n"
            }
            return (relayed, nil)
        }
        if let found { announce(found) }
        return relay
    }

    /// Settles the URL (nil: standard error ended without it) and wakes whoever waits for it.
    private func announce(_ url: String?) {
        let (waiter, settled): (CheckedContinuation<String?, Never>?, String?) = state.withLock { state in
            if !state.urlSettled {
                state.urlSettled = true
                if let url { state.url = url }
            }
            defer { state.urlWaiter = nil }
            return (state.urlWaiter, state.url)
        }
        waiter?.resume(returning: settled)
    }

    private func streamEnded() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.openStreams -= 1
            guard state.openStreams <= 0 else { return nil }
            defer { state.streamsWaiter = nil }
            return state.streamsWaiter
        }
        waiter?.resume()
    }
}
