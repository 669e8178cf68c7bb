/// The batteries' state as `device.battery` answers it.
struct BatteryStatus: Sendable, Equatable {
    /// Whether the machine has a battery at all.
    var present: Bool
    /// Charge from 0 to 1; nil when absent or not reported.
    var level: Double?
    /// Whether on external power (the battery charging or full), as Capacitor's `isCharging`; nil
    /// when absent or unknown.
    var charging: Bool?

    static let absent = BatteryStatus(present: false, level: nil, charging: nil)
}
