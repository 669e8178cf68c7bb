import Foundation

/// What /proc says about a process: CPU time and resident memory, for the load benchmark's
/// servers and the PostgreSQL cluster under them.
enum ProcessStats {
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// Fields 14-17 of /proc/PID/stat (utime, stime, cutime, cstime) in seconds, and field 4 (the
    /// parent); nil once the process is gone. The command name (field 2) may hold spaces, so the
    /// fields are counted from its closing parenthesis.
    static func stat(_ pid: Int32) -> (parent: Int32, own: Double, children: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3), so field n is fields[n - 3].
        guard fields.count > 14, let parent = Int32(fields[1]),
              let utime = Double(fields[11]), let stime = Double(fields[12]),
              let cutime = Double(fields[13]), let cstime = Double(fields[14]) else { return nil }
        return (parent, (utime + stime) / ticksPerSecond, (cutime + cstime) / ticksPerSecond)
    }

    /// User plus system CPU seconds the process has used so far (0 once it is gone).
    static func cpuSeconds(_ pid: Int32) -> Double { stat(pid)?.own ?? 0 }

    /// VmRSS of /proc/PID/status in MiB (0 once the process is gone).
    static func residentMiB(_ pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kib / 1024
    }

    /// The postmaster of the PostgreSQL cluster listening on `port` (`postgres ... -p PORT`, as
    /// scripts/with-postgres starts it), found by its command line; nil when none is.
    static func postmaster(port: Int) -> Int32? {
        for pid in processIds() {
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { continue }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard let program = arguments.first, program.hasSuffix("/postgres") || program == "postgres" else { continue }
            if let flag = arguments.firstIndex(of: "-p"), flag + 1 < arguments.count, arguments[flag + 1] == String(port) { return pid }
        }
        return nil
    }

    /// CPU seconds of a whole PostgreSQL cluster: the postmaster's own, plus its live children's
    /// (backends, checkpointer, WAL writer...), plus what its exited children used (the kernel adds
    /// that to the parent's cutime/cstime when it reaps them), so that two readings bracket all the
    /// work done between them.
    static func clusterCPUSeconds(postmaster: Int32) -> Double {
        guard let root = stat(postmaster) else { return 0 }
        var total = root.own + root.children
        for pid in processIds() where pid != postmaster {
            if let child = stat(pid), child.parent == postmaster { total += child.own }
        }
        return total
    }

    static func processIds() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
    }

    /// Raises the soft limit on open files to the hard one, for this process and the servers it
    /// starts afterwards (children inherit it): thousands of connections are thousands of files.
    static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(limit.rlim_cur)
    }
}
