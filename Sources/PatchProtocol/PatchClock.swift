import Glibc

/// Wall-clock time for `expires`, as seconds since the epoch; tests pass their own `now`.
public enum PatchClock {
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// `2027-01-31T00:00:00Z` (UTC only, fraction of seconds allowed) as epoch seconds.
    public static func parse(_ text: String) -> Double? {
        let units = Array(text.utf8)
        guard units.count >= 20, units.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard units[i] >= 48, units[i] <= 57 else { return nil }
                value = value * 10 + Int(units[i] - 48)
            }
            return value
        }
        guard units[4] == 45, units[7] == 45, units[10] == 84, units[13] == 58, units[16] == 58,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        if units.count > 20 {
            // At least one digit; those past the ninth (a nanosecond) are checked but not added, so
            // a fraction of any length reads without overflowing.
            let end = units.count - 1
            guard units[19] == 46, end > 20, units[20..<end].allSatisfy({ $0 >= 48 && $0 <= 57 }),
                  let digits = number(20..<min(end, 29)) else { return nil }
            fraction = Double(digits) / pow(10, Double(min(end, 29) - 20))
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Double(timegm(&parts)) + fraction
    }

    /// Epoch seconds as `2027-01-31T00:00:00Z`.
    public static func format(_ seconds: Double) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
