#if canImport(Glibc)
import Glibc
#endif

/// HTTP's dates (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7) as seconds since 1970.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// An IMF-fixdate, or nil for anything else: the obsolete RFC 850 and asctime forms are not
    /// worth a cache's while, and a field of the wrong width or out of range (a year of 15 digits,
    /// hour 24) is no date at all.
    package static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = digits(parts[1], count: 2), (1...31).contains(day),
              let month = months.firstIndex(of: parts[2].lowercased()),
              let year = digits(parts[3], count: 4) else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = digits(clock[0], count: 2), let minute = digits(clock[1], count: 2),
              let second = digits(clock[2], count: 2), hour < 24, minute < 60, second <= 60 else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        return Double(timegm(&fields))
    }

    /// Exactly `count` ASCII digits as a number, else nil.
    private static func digits(_ text: Substring, count: Int) -> Int? {
        guard text.utf8.count == count else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
