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
            case "max-age": if parts.count == 2, let seconds = Double(parts[1]), seconds >= 0 { maxAge = seconds }
            default: break
            }
        }
    }
}
