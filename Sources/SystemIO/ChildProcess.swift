import Glibc

/// Runs a program to completion with its standard input given and its output collected, without
/// Foundation: `posix_spawn`, three pipes and `poll`, so a child that writes much to both streams
/// never blocks on a full pipe while we write its input.
///
/// ```swift
/// let result = try ChildProcess.run("/usr/bin/esbuild", ["--loader=ts"], input: Array(source.utf8))
/// if result.status == 0 { print(String(decoding: result.output, as: UTF8.self)) }
/// ```
public enum ChildProcess {
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal number when a signal ended the child.
        public let status: Int32
        public let output: [UInt8]
        public let errorOutput: [UInt8]
    }

    public struct LaunchError: Error, CustomStringConvertible {
        public let executable: String
        public let code: Int32
        public var description: String { "cannot run \(executable): \(String(cString: strerror(code)))" }
    }

    public static func run(_ executable: String, _ arguments: [String], input: [UInt8] = []) throws(LaunchError) -> Result {
        var stdinPipe: [Int32] = [0, 0], stdoutPipe: [Int32] = [0, 0], stderrPipe: [Int32] = [0, 0]
        for index in 0..<3 {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw LaunchError(executable: executable, code: errno) }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            switch index {
            case 0: stdinPipe = ends
            case 1: stdoutPipe = ends
            default: stderrPipe = ends
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        for fd in [stdinPipe[0], stdoutPipe[1], stderrPipe[1]] { close(fd) }
        guard spawned == 0 else {
            for fd in [stdinPipe[1], stdoutPipe[0], stderrPipe[0]] { close(fd) }
            throw LaunchError(executable: executable, code: spawned)
        }

        // A child that exits before reading all its input must not kill us with SIGPIPE: block it
        // on this thread while we write, and take a pending one off the queue afterwards.
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

        var output: [UInt8] = [], errorOutput: [UInt8] = []
        var inputFD = stdinPipe[1], written = 0
        if input.isEmpty { close(inputFD); inputFD = -1 }
        _ = fcntl(inputFD, F_SETFL, O_NONBLOCK)
        var open: [Int32] = [stdoutPipe[0], stderrPipe[0]]
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty || inputFD >= 0 {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputFD >= 0 { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == inputFD {
                    let count = input.withUnsafeBytes { write(inputFD, $0.baseAddress! + written, input.count - written) }
                    if count > 0 { written += count }
                    if count < 0 && errno != EAGAIN && errno != EINTR || written == input.count {
                        close(inputFD)
                        inputFD = -1
                    }
                    continue
                }
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, 65536) }
                if count > 0 {
                    if entry.fd == stdoutPipe[0] { output.append(contentsOf: chunk[0..<count]) } else { errorOutput.append(contentsOf: chunk[0..<count]) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: exit, output: output, errorOutput: errorOutput)
    }
}
