import Glibc

/// Runs a program to completion with its standard input given and its output collected, without
/// Foundation: a ``SpawnedProcess`` with three pipes, and `poll`, so a child that writes much to both streams
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

    public typealias LaunchError = SpawnedProcess.LaunchError

    public static func run(_ executable: String, _ arguments: [String], input: [UInt8] = []) throws(LaunchError) -> Result {
        let child = try SpawnedProcess(executable, arguments, input: input.isEmpty ? .null : .pipe, output: .pipe, error: .pipe)
        return SpawnedProcess.withoutPipeSignal {
            let (output, errorOutput) = exchange(with: child, input: input)
            return Result(status: child.waitForExit(), output: output, errorOutput: errorOutput)
        }
    }

    /// Writes `input` and reads both outputs as each is ready, until the child has closed them.
    private static func exchange(with child: SpawnedProcess, input: [UInt8]) -> (output: [UInt8], errorOutput: [UInt8]) {
        let stdoutFD = child.output!, stderrFD = child.errorOutput!
        var output: [UInt8] = [], errorOutput: [UInt8] = []
        var inputFD = child.input ?? -1, written = 0
        if inputFD >= 0 { _ = fcntl(inputFD, F_SETFL, O_NONBLOCK) }
        var open: [Int32] = [stdoutFD, stderrFD]
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
                    if entry.fd == stdoutFD { output.append(contentsOf: chunk[0..<count]) } else { errorOutput.append(contentsOf: chunk[0..<count]) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        return (output, errorOutput)
    }
}
