import SystemIO

/// The IANA name of the local time zone (`Europe/Berlin`).
///
/// Looked for where the C library looks, in its order: `TZ`, then `/etc/timezone` (Debian's), then
/// the zone file `/etc/localtime` links to; "UTC" when none says, which is also what the C library
/// then uses.
enum TimeZoneName {
    static let fallback = "UTC"

    /// - Parameters:
    ///   - environment: reads an environment variable.
    ///   - etcDirectory: the folder holding `timezone` and `localtime`, `/etc` but in tests.
    static func resolve(environment: (String) -> String?, etcDirectory: String = "/etc") -> String {
        if let tz = environment("TZ"), let name = fromTZ(tz) { return name }
        if let text = SystemFile.attribute(etcDirectory + "/timezone"),
           let line = text.split(whereSeparator: \.isNewline).first.map({ String($0).trimmingWhiteSpace() }),
           isZoneName(line)
        {
            return line
        }
        if let target = FileSystem.linkTarget(etcDirectory + "/localtime"), let name = fromZoneFile(target) {
            return name
        }
        return fallback
    }

    /// The zone a `TZ` value names: `Europe/Berlin`, `:Europe/Berlin`, or a path into a zoneinfo
    /// folder. Nil for POSIX rules such as `CET-1CEST,M3.5.0,M10.5.0/3`, which name no zone.
    static func fromTZ(_ value: String) -> String? {
        var name = Substring(value)
        if name.hasPrefix(":") { name = name.dropFirst() }
        if name.hasPrefix("/") { return fromZoneFile(String(name)) }
        return isZoneName(name) ? String(name) : nil
    }

    /// The zone a path into a zoneinfo folder names: `/usr/share/zoneinfo/Europe/Berlin` and
    /// `../usr/share/zoneinfo/posix/Europe/Berlin` both give `Europe/Berlin`.
    static func fromZoneFile(_ path: String) -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let marker = components.lastIndex(of: "zoneinfo") else { return nil }
        var zone = components[(marker + 1)...]
        if zone.first == "posix" || zone.first == "right" { zone = zone.dropFirst() }
        let name = zone.joined(separator: "/")
        return isZoneName(name) ? name : nil
    }

    /// Whether the text has the shape of a zone name: letters first, then letters, digits and
    /// `/ _ - +`, with no empty or dot segments.
    private static func isZoneName(_ text: some StringProtocol) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        let allowed = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/_-+".contains($0)) }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        return allowed && !segments.contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }
}
