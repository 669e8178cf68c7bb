import Glibc

/// The kernel's own account of the machine, from `uname(2)`.
struct SystemName: Sendable, Equatable {
    /// `uname -r`: "6.1.0-18-amd64".
    var release: String
    /// `uname -m`: "x86_64", "aarch64".
    var machine: String
    /// `uname -n`: the host name.
    var nodeName: String

    /// Asks the kernel; uname cannot fail with a valid buffer, so the fields are never empty
    /// unless the kernel says so.
    static func current() -> SystemName {
        var name = utsname()
        _ = uname(&name)
        return SystemName(release: text(name.release), machine: text(name.machine), nodeName: text(name.nodename))
    }

    private static func text<Field>(_ field: Field) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
