import CSpawn
import Glibc
import Synchronization

/// A child process started with `posix_spawn`, whose end a thread of its own waits for.
///
/// Two guarantees that Foundation's `Process` does not give on Linux, where it learns of a
/// child's end from a socket the child inherits: a child spawned here keeps only descriptors 0,
/// 1 and 2 (all others are closed in the child before it runs, `closefrom`), so it never holds
/// another child's pipe or socket open; and its end is seen by `waitid` on its own pid, which no
/// other child can delay. (A test run once hung for good on a finished `hybrid` that Foundation
/// never reaped: a server spawned by another thread at the same moment held that socket.)
///
/// ```swift
/// let child = try SpawnedProcess("/usr/bin/env", ["node", "--version"], output: .pipe)
/// let version = child.readOutput()
/// #expect(child.waitForExit() == 0)
/// ```
public final class SpawnedProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// This process's own.
        case inherit
        /// `/dev/null`.
        case null
        /// A pipe whose other end this process holds: ``input``, ``output`` or ``errorOutput``.
        case pipe
        /// A file: read from (input), or created and truncated (output).
        case file(String)
        /// Standard error only: wherever standard output goes.
        case sameAsOutput
    }

    public struct LaunchError: Error, CustomStringConvertible {
        public let executable: String
        public let code: Int32
        public var description: String { "cannot run \(executable): \(String(cString: strerror(code)))" }
    }

    public let pid: pid_t
    /// This process's ends of the `.pipe` streams, owned by the caller (who closes them; the
    /// reading helpers below close what they read to its end).
    public let input: Int32?
    public let output: Int32?
    public let errorOutput: Int32?

    private let state = Mutex(State())

    private struct State: ~Copyable {
        var status: Int32?
        var waiters: [UnsafeContinuation<Int32, Never>] = []
        var handlers: [@Sendable (Int32) -> Void] = []
    }

    /// Starts `executable` (looked up on PATH when it has no `/`) with `arguments`, `environment`
    /// added to this process's own, in `directory` when given. `newProcessGroup` puts the child
    /// in a group of its own, so that a signal sent to the test's group does not reach it.
    /// `blockedSignals` start blocked in the child, as a parent that blocked them would leave them.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                input inputStream: Stream = .null, output outputStream: Stream = .inherit, error errorStream: Stream = .inherit,
                newProcessGroup: Bool = false, blockedSignals: [Int32] = []) throws(LaunchError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        // Descriptors this process closes once the child has its copies (the child's ends of
        // the pipes), and this process's ends, returned to the caller.
        var childEnds: [Int32] = []
        var parentEnds: [Int32?] = [nil, nil, nil]
        func fail(_ code: Int32) -> LaunchError {
            for fd in childEnds { close(fd) }
            for case let fd? in parentEnds { close(fd) }
            return LaunchError(executable: executable, code: code)
        }
        for (target, stream) in [inputStream, outputStream, errorStream].enumerated() {
            let target = Int32(target)
            switch stream {
            case .inherit:
                break
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                let flags = target == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC
                posix_spawn_file_actions_addopen(&actions, target, path, flags, 0o644)
            case .sameAsOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, target)
            case .pipe:
                var ends: [Int32] = [0, 0]
                guard cspawn_pipe_cloexec(&ends) == 0 else { throw fail(errno) }
                let (childEnd, parentEnd) = target == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                childEnds.append(childEnd)
                parentEnds[Int(target)] = parentEnd
                posix_spawn_file_actions_adddup2(&actions, childEnd, target)
            }
        }
        cspawn_add_close_from(&actions, 3)
        if let directory { cspawn_add_chdir(&actions, directory) }
        // The child starts with no signal blocked (but those asked for) and default dispositions,
        // whatever this thread's mask (a test process may block SIGTERM) or the process's handlers.
        var mask = sigset_t(), all = sigset_t()
        sigemptyset(&mask)
        for signal in blockedSignals { sigaddset(&mask, signal) }
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = Self.environment(adding: environment).map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        let spawn = executable.contains("/") ? posix_spawn : posix_spawnp
        var pid: pid_t = 0
        let spawned = spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw fail(spawned) }
        for fd in childEnds { close(fd) }
        self.pid = pid
        (input, output, errorOutput) = (parentEnds[0], parentEnds[1], parentEnds[2])
        DetachedThread.start { [self] in reap() }
    }

    /// The exit status once the child has ended (128 + the signal number when a signal ended
    /// it, as a shell reports it), nil while it runs.
    public var exitStatus: Int32? { state.withLock { $0.status } }
    public var isRunning: Bool { exitStatus == nil }

    /// Sends `signal` to the child if it has not ended yet (never to a pid the system has since
    /// given to another process: the child is not reaped until this says it has ended).
    public func signal(_ signal: Int32) {
        state.withLock { state in
            if state.status == nil { kill(pid, signal) }
        }
    }

    /// Blocks the calling thread until the child ends; its ``exitStatus``.
    @discardableResult
    public func waitForExit() -> Int32 {
        let ended = Mutex<Int32?>(nil)
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        defer { sem_destroy(semaphore); semaphore.deallocate() }
        let pointer = UInt(bitPattern: semaphore)
        onExit { status in
            ended.withLock { $0 = status }
            sem_post(UnsafeMutablePointer<sem_t>(bitPattern: pointer)!)
        }
        while sem_wait(semaphore) != 0 && errno == EINTR {}
        return ended.withLock { $0 }!
    }

    /// Suspends until the child ends; its ``exitStatus``.
    @discardableResult
    public func exit() async -> Int32 {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Int32, Never>) in
            let status: Int32? = state.withLock { state in
                if state.status == nil { state.waiters.append(continuation) }
                return state.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Calls `handler` with the exit status once the child ends (at once if it has), on the
    /// thread that saw it end.
    public func onExit(_ handler: @escaping @Sendable (Int32) -> Void) {
        let status: Int32? = state.withLock { state in
            if state.status == nil { state.handlers.append(handler) }
            return state.status
        }
        if let status { handler(status) }
    }

    /// Writes `bytes` to the child's standard input and closes it (a child that stopped reading
    /// ends the write early: SIGPIPE is ignored for the write).
    public func writeInput(_ bytes: [UInt8]) {
        guard let input else { return }
        Self.withoutPipeSignal {
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(input, $0.baseAddress! + written, bytes.count - written) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                written += count
            }
        }
        close(input)
    }

    /// Closes the child's standard input (a `.pipe`): it reads the end of its input.
    public func closeInput() {
        if let input { close(input) }
    }

    /// Reads one line of the child's standard output, without its line break (a byte at a time:
    /// nothing after the line is taken from the pipe); nil at the end of the output.
    public func readOutputLine() -> String? {
        guard let output else { return nil }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(output, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    /// Reads the child's standard output to its end and closes it.
    public func readOutput() -> [UInt8] { output.map(Self.readToEnd) ?? [] }

    /// Reads the child's standard output to its end on a thread of its own, and closes it: for a
    /// task, which must not hold one of Swift's few pool threads in a blocking read.
    public func collectOutput() async -> [UInt8] {
        await DetachedThread.run { [self] in readOutput() }
    }

    /// Reads the child's standard error to its end and closes it.
    public func readErrorOutput() -> [UInt8] { errorOutput.map(Self.readToEnd) ?? [] }

    /// Reads `fd` on a thread of its own as data arrives, handing each chunk to `chunk`, then
    /// closes it and calls `end`: a child's output collected while it runs, so that it never
    /// blocks on a full pipe.
    public static func readAsItArrives(_ fd: Int32, chunk: @escaping @Sendable (ArraySlice<UInt8>) -> Void, end: @escaping @Sendable () -> Void) {
        DetachedThread.start {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                chunk(buffer[0..<count])
            }
            close(fd)
            end()
        }
    }

    /// Reads `fd` until end of file, then closes it.
    public static func readToEnd(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        close(fd)
        return bytes
    }

    /// Runs `body` with SIGPIPE blocked on this thread, and takes a SIGPIPE it raised off the
    /// queue afterwards: a write to a child that has stopped reading fails with EPIPE instead of
    /// ending this process.
    static func withoutPipeSignal<T>(_ body: () -> T) -> T {
        var pipeSignal = sigset_t(), previousMask = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var zero = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &zero)
            }
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        return body()
    }

    /// This process's environment with `additions` set, as `NAME=value` strings.
    private static func environment(adding additions: [String: String]) -> [String] {
        var variables: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
            if additions[name] == nil { variables.append(text) }
            index += 1
        }
        for (name, value) in additions { variables.append(name + "=" + value) }
        return variables
    }

    /// On the child's own thread: waits for its end without reaping it (`WNOWAIT`), records the
    /// status under the lock that ``signal(_:)`` takes, and only then reaps it, so that no signal
    /// can reach a pid the system has given to another process.
    private func reap() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        let (waiters, handlers, status): ([UnsafeContinuation<Int32, Never>], [@Sendable (Int32) -> Void], Int32) = state.withLock { state in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            let status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            state.status = status
            defer { state.waiters = []; state.handlers = [] }
            return (state.waiters, state.handlers, status)
        }
        for waiter in waiters { waiter.resume(returning: status) }
        for handler in handlers { handler(status) }
    }
}
