/// The Cache-Control directives a private cache acts on.
package struct CacheControl {
    package var noStore = false
    package var noCache = false
    package var maxAge: Double?

    package init(_ header: String?) {
        for directive in (header ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: " \t\"").lowercased() }
            switch parts.first {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age": if parts.count == 2, let seconds = Self.deltaSeconds(parts[1]) { maxAge = seconds }
            default: break
            }
        }
    }

    /// RFC 9111's delta-seconds (max-age, Age): ASCII digits only, and a value past 2³¹ reads as
    /// 2³¹, as §1.2.2 says. Nil for anything else ("inf", "1e3", "-5", "0x10"), which the cache
    /// then ignores, as it ignores any directive it cannot read.
    package static func deltaSeconds(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let limit = 2_147_483_648.0
        var value = 0.0
        for byte in text.utf8 {
            value = min(value * 10 + Double(byte - UInt8(ascii: "0")), limit)
        }
        return value
    }
}
