/// Seconds since boot, from `/proc/uptime` (`"287.42 491.56"`: uptime, then idle time summed
/// over all CPUs).
enum Uptime {
    /// The first field, or nil when it is not a non-negative number.
    static func parse(_ text: String) -> Double? {
        guard let first = text.split(whereSeparator: \.isWhitespace).first,
              let seconds = Double(first), seconds.isFinite, seconds >= 0
        else { return nil }
        return seconds
    }
}
