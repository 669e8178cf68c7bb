#if canImport(Glibc)
import Glibc
#endif

/// HTTP's dates (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7) as seconds since 1970.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    package static func parse(_ text: String) -> Double? {
        // IMF-fixdate only: the obsolete RFC 850 and asctime forms are not worth a cache's while.
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
              let month = months.firstIndex(of: parts[2].lowercased()) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(clock[0])
        fields.tm_min = Int32(clock[1])
        fields.tm_sec = Int32(clock[2])
        return Double(timegm(&fields))
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
