import Foundation

/// A release `hybrid sync-server serve` as a process of its own, so that its CPU time and memory can
/// be read from /proc apart from the load generator's. Started on port 0; the port is read from
/// the line it prints once listening. SIGTERM stops it gracefully (held pulls answer first).
///
/// Spawned with posix_spawn and an empty signal mask rather than Foundation's `Process`: a child
/// spawned from one of Swift's concurrency threads inherited that thread's mask, SIGTERM included,
/// and so never heard it.
struct SyncServerProcess {
    let pid: pid_t
    let port: Int
    /// The read end of the server's standard output, kept open for its life.
    private let output: FileHandle

    /// Starts `hybrid` (`executable`) on `database` (a SQLite file or a postgres:// URL), verifying
    /// HS256 tokens with the secret in `secretFile`, with `limits` (by default none that a load
    /// from one address would meet: no rate limit, no bound on connections per address or held
    /// pulls, since the load benchmark measures the server, not its limiter; the devices stay far
    /// below them anyway).
    static func start(executable: String, database: String, secretFile: String,
                      limits: [String] = ["--rate-limit", "0", "--max-connections", "1000000", "--max-connections-per-address", "1000000",
                                          "--max-held-pulls-per-user", "1000000"]) throws -> SyncServerProcess {
        let arguments = [executable, "sync-server", "serve", "--port", "0", "--db", database, "--auth-secret-file", secretFile] + limits
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BenchError("pipe: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(fds[1])
        let output = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        guard spawned == 0 else { throw BenchError("cannot start \(executable): errno \(spawned)") }
        var line: [UInt8] = []
        while let byte = try? output.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") { line.append(first) }
        // "sync-server listening on http://127.0.0.1:PORT (auth: ...)"
        let text = String(decoding: line, as: UTF8.self)
        guard let address = text.split(separator: " ").first(where: { $0.hasPrefix("http://") }),
              let port = address.split(separator: ":").last.flatMap({ Int($0) }) else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw BenchError("\(executable) sync-server serve did not start: \(text.isEmpty ? "no output" : text)")
        }
        return SyncServerProcess(pid: pid, port: port, output: output)
    }

    var cpuSeconds: Double { ProcessStats.cpuSeconds(pid) }
    var residentMiB: Double { ProcessStats.residentMiB(pid) }

    /// SIGTERM: held pulls answer, requests in flight finish, the process exits.
    func terminate() { kill(pid, SIGTERM) }

    /// SIGTERM, then waits for it to exit; SIGKILL after 10 s (a server that stopped answering may
    /// not stop either). Reaped once: a second call finds it gone.
    func stop() {
        terminate()
        var status: Int32 = 0
        for _ in 0..<200 {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || reaped < 0 { return }
            usleep(50_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
}
