import HostTesting

/// A `hybrid sync-server serve` child as the load benchmarks run it: its CPU time and memory read
/// from /proc apart from the load generator's.
extension LocalSyncServer {
    /// Limits that a load from one address would meet, lifted: no bound on connections per
    /// address or held pulls (with `rateLimit: .off`, no rate limit), since the load benchmarks
    /// measure the server, not its limiter; the devices stay far below them anyway.
    static let unlimited = ["--max-connections", "1000000", "--max-connections-per-address", "1000000", "--max-held-pulls-per-user", "1000000"]

    var cpuSeconds: Double { processIdentifier.map(ProcessStats.cpuSeconds) ?? 0 }
    var residentMiB: Double { processIdentifier.map(ProcessStats.residentMiB) ?? 0 }
}
