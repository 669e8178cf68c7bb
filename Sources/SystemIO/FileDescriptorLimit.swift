import Glibc

/// The process's limit on open file descriptors (`ulimit -n`, `RLIMIT_NOFILE`): a server's cap on
/// connections, since each is a descriptor. Shells and systemd often start a process with a soft
/// limit of 1024 under a hard limit far above it.
///
/// ```swift
/// let limit = FileDescriptorLimit.raiseToHard()   // (soft: 524288, hard: 524288)
/// ```
public enum FileDescriptorLimit {
    /// The soft and hard limits now.
    public static var current: (soft: Int, hard: Int) {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return (Self.count(limit.rlim_cur), Self.count(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one, as far as an unprivileged process may; returns the
    /// limits after (unchanged when the kernel refused).
    @discardableResult
    public static func raiseToHard() -> (soft: Int, hard: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return current }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current
    }

    /// Unlimited (`RLIM_INFINITY`, all ones) as Int.max.
    static func count(_ value: rlim_t) -> Int {
        value > rlim_t(Int.max) ? Int.max : Int(value)
    }
}
