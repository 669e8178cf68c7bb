import Foundation
import Glibc
import SystemIO

/// A child process whose stdout and stderr are read as they arrive, each line stamped with when
/// it did: for tests and benchmarks that talk to a `hybrid` that keeps running (`run --watch`),
/// waiting for a line before the next step.
///
/// ```swift
/// let child = try LiveProcess(hybrid, ["run", app, "--watch"])
/// defer { child.stop() }
/// #expect(await child.wait { $0.standardError.contains("[watch] swapped") })
/// ```
public final class LiveProcess: Sendable {
    /// One line of output and when it was read (``MonotonicClock``).
    public struct Line: Sendable {
        public let text: String
        public let at: UInt64
    }

    /// What the child has written so far.
    public struct Output: Sendable {
        public var standardOutput = ""
        public var standardError = ""
        public var outputLines: [Line] = []
        public var errorLines: [Line] = []
        /// The exit status once it has ended (128 + the signal number when a signal ended it).
        public var exitStatus: Int32?
    }

    private let child: SpawnedProcess
    private let state = Locked(Output())
    private let readers = DispatchGroup()

    /// Starts `executable` with `arguments`; `environment` is added to this process's own.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws {
        child = try SpawnedProcess(executable, arguments, environment: environment, directory: directory, output: .pipe, error: .pipe)
        child.onExit { [state] status in state.withLock { $0.exitStatus = status } }
        read(child.output!, standardError: false)
        read(child.errorOutput!, standardError: true)
    }

    deinit { stop() }

    public var output: Output { state.value }
    public var processIdentifier: Int32 { child.pid }

    /// Sends `signal` to the child if it still runs.
    public func signal(_ signal: Int32) { child.signal(signal) }

    /// Waits until `condition` holds of the output, checking every 5 ms, for up to `timeout`
    /// seconds; returns whether it held.
    public func wait(timeout: Double = 20, until condition: (Output) -> Bool) async -> Bool {
        let deadline = MonotonicClock.now() + UInt64(timeout * 1e9)
        while true {
            if condition(output) { return true }
            if MonotonicClock.now() >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The same, blocking the calling thread (benchmarks).
    public func waitBlocking(timeout: Double = 20, until condition: (Output) -> Bool) -> Bool {
        let deadline = MonotonicClock.now() + UInt64(timeout * 1e9)
        while true {
            if condition(output) { return true }
            if MonotonicClock.now() >= deadline { return false }
            usleep(1000)
        }
    }

    /// Kills the child (SIGKILL: a child inherits the test process's signal mask, in which
    /// SIGTERM may be blocked) and waits for it and its output. Idempotent.
    public func stop() {
        child.signal(SIGKILL)
        child.waitForExit()
        readers.wait()
    }

    private func read(_ fd: Int32, standardError: Bool) {
        readers.enter()
        let partial = Locked([UInt8]())  // a line not yet ended (one reader thread: never contended)
        SpawnedProcess.readAsItArrives(fd, chunk: { [state] chunk in
            let now = MonotonicClock.now()
            let lines: [Line] = partial.withLock { partial in
                partial += chunk
                var lines: [Line] = []
                while let newline = partial.firstIndex(of: 10) {
                    lines.append(Line(text: String(decoding: partial[..<newline], as: UTF8.self), at: now))
                    partial.removeSubrange(...newline)
                }
                return lines
            }
            let text = String(decoding: chunk, as: UTF8.self)
            state.withLock { output in
                if standardError {
                    output.standardError += text
                    output.errorLines += lines
                } else {
                    output.standardOutput += text
                    output.outputLines += lines
                }
            }
        }, end: { [readers] in readers.leave() })
    }
}
