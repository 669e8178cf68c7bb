/// Memory totals from `/proc/meminfo`, in bytes.
///
/// ```swift
/// MemoryInfo.parse("MemTotal: 2048 kB\nMemAvailable: 1024 kB\n")
/// // MemoryInfo(total: 2_097_152, available: 1_048_576)
/// ```
struct MemoryInfo: Sendable, Equatable {
    var total: Int
    /// What can be allocated without swapping: `MemAvailable`, which kernels before 3.14 lack;
    /// there the estimate is `MemFree + Buffers + Cached`, as `free(1)` made it then.
    var available: Int

    /// The totals, or nil when the text has no `MemTotal` line.
    static func parse(_ text: String) -> MemoryInfo? {
        var kibibytes: [Substring: Int] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let words = line[line.index(after: colon)...].split(whereSeparator: \.isWhitespace)
            guard let first = words.first, let amount = Int(first) else { continue }
            // Every size line is in kB (really KiB); the few counters without a unit are not sizes.
            guard words.count == 2, words[1].lowercased() == "kb" else { continue }
            kibibytes[line[..<colon]] = amount
        }
        guard let total = kibibytes["MemTotal"] else { return nil }
        let available = kibibytes["MemAvailable"]
            ?? (kibibytes["MemFree"] ?? 0) + (kibibytes["Buffers"] ?? 0) + (kibibytes["Cached"] ?? 0)
        return MemoryInfo(total: total * 1024, available: min(available, total) * 1024)
    }
}
