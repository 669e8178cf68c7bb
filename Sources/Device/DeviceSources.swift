import Glibc

/// Where the device service reads the machine from: the live system, or a fixture in tests.
struct DeviceSources: Sendable {
    /// Reads an environment variable.
    var environment: @Sendable (String) -> String?
    var procDirectory: String
    /// Holds `os-release`, `timezone` and `localtime`.
    var etcDirectory: String
    /// The os-release(5) fallback, read when `<etc>/os-release` is missing.
    var usrLibDirectory: String
    var powerSupplyDirectory: String

    static let live = DeviceSources(
        environment: { name in getenv(name).map { String(cString: $0) } },
        procDirectory: "/proc",
        etcDirectory: "/etc",
        usrLibDirectory: "/usr/lib",
        powerSupplyDirectory: "/sys/class/power_supply"
    )
}
