import Foundation
import Glibc
import SystemIO

/// A server program run as a child for as long as a test or benchmark needs it: its standard
/// output and the tail of its standard error read as they come (so that it never blocks on a
/// full pipe, and a failure can say what it said), SIGTERM, SIGKILL, and its end.
///
/// A ``SpawnedProcess``: it starts with no signal blocked (a child spawned from one of Swift's
/// concurrency threads once inherited that thread's mask, SIGTERM included, and never heard it),
/// keeps no descriptor of this process's but its three streams, and is reaped on its own pid.
final class ChildServerProcess: Sendable {
    /// How much of the child's standard error is kept: its last 64 KiB.
    static let errorTail = 64 * 1024

    private struct Output {
        var standardOutput: [UInt8] = []
        var standardError: [UInt8] = []
        var closedStreams = 0
    }

    let executable: String
    private let child: SpawnedProcess
    private let output = Locked(Output())

    var pid: pid_t { child.pid }

    /// Starts `executable` with `arguments`, standard input from /dev/null.
    init(executable: String, arguments: [String]) throws {
        do {
            child = try SpawnedProcess(executable, arguments, output: .pipe, error: .pipe)
        } catch {
            throw LocalSyncServerError("\(error)")
        }
        self.executable = executable
        read(child.output!, standardError: false)
        read(child.errorOutput!, standardError: true)
    }

    /// What the child has written to its standard output so far.
    var standardOutput: String { output.read { String(decoding: $0.standardOutput, as: UTF8.self) } }

    /// The last ``errorTail`` bytes the child has written to its standard error.
    var standardError: String { output.read { String(decoding: $0.standardError, as: UTF8.self) } }

    /// The first line of standard output, once written (nil if the child closed its output first
    /// or `timeout` seconds passed). Blocks the calling thread, polling every 5 ms.
    func firstLine(timeout: Double) -> String? {
        let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
        while ContinuousClock.now < deadline {
            let (line, closed): (String?, Bool) = output.read { output in
                guard let newline = output.standardOutput.firstIndex(of: UInt8(ascii: "\n")) else { return (nil, output.closedStreams == 2) }
                return (String(decoding: output.standardOutput[..<newline], as: UTF8.self), false)
            }
            if let line { return line }
            if closed { return nil }
            usleep(5_000)
        }
        return nil
    }

    /// SIGTERM, without waiting: a graceful stop under way.
    func terminate() { child.signal(SIGTERM) }

    /// SIGKILL, then waits for its end: no graceful shutdown, transactions in flight cut off where they are.
    func kill() {
        child.signal(SIGKILL)
        child.waitForExit()
    }

    /// SIGTERM and waits for it to exit; SIGKILL after `timeout` seconds (a server that stopped
    /// answering may not stop either). Returns at once when it has already ended.
    func stop(timeout: Double = 10) {
        guard child.isRunning else { return }
        terminate()
        if !waitForExit(timeout: timeout) { kill() }
    }

    /// Waits for the child's end for at most `timeout` seconds (nil: for as long as it takes);
    /// whether it has ended.
    func waitForExit(timeout: Double?) -> Bool {
        guard let timeout else {
            child.waitForExit()
            return true
        }
        let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
        while child.isRunning {
            if ContinuousClock.now >= deadline { return false }
            usleep(20_000)
        }
        return true
    }

    private func read(_ fd: Int32, standardError: Bool) {
        SpawnedProcess.readAsItArrives(fd, chunk: { [output] chunk in
            output.withLock { output in
                if standardError {
                    output.standardError += chunk
                    if output.standardError.count > Self.errorTail { output.standardError.removeFirst(output.standardError.count - Self.errorTail) }
                } else {
                    output.standardOutput += chunk
                }
            }
        }, end: { [output] in output.withLock { $0.closedStreams += 1 } })
    }
}
