import SystemIO

/// Reads the batteries the kernel lists under `/sys/class/power_supply`.
///
/// An entry counts when its `type` is `Battery`, its `scope` is not `Device` (a wireless mouse's
/// battery powers the mouse, not the machine) and its `present` is not `0` (an empty bay).
///
/// - `level` is `capacity` / 100, else `energy_now / energy_full` or `charge_now / charge_full`;
///   with several batteries, their mean.
/// - `charging` follows Capacitor (Android's `BatteryManager`, iOS's `UIDevice.batteryState`):
///   `Charging` and `Full` are true, `Discharging` and `Not charging` false, `Unknown` or a
///   missing `status` nil. With several batteries, true if any is true, else false if any is false.
///
/// ```swift
/// BatteryReader(root: "/sys/class/power_supply").read()
/// // BatteryStatus(present: true, level: 0.57, charging: false)
/// ```
struct BatteryReader: Sendable {
    var root: String

    init(root: String = "/sys/class/power_supply") {
        self.root = root
    }

    func read() -> BatteryStatus {
        var levels: [Double] = []
        var states: [Bool] = []
        var found = false
        for name in FileSystem.entries(ifFolder: root) ?? [] {
            let folder = root + "/" + name + "/"
            guard SystemFile.attribute(folder + "type") == "Battery",
                  SystemFile.attribute(folder + "scope") != "Device",
                  SystemFile.attribute(folder + "present") != "0"
            else { continue }
            found = true
            if let level = level(in: folder) { levels.append(level) }
            if let charging = SystemFile.attribute(folder + "status").flatMap(Self.charging(status:)) {
                states.append(charging)
            }
        }
        guard found else { return .absent }
        let level = levels.isEmpty ? nil : levels.reduce(0, +) / Double(levels.count)
        let charging: Bool? = states.contains(true) ? true : states.contains(false) ? false : nil
        return BatteryStatus(present: true, level: level, charging: charging)
    }

    /// Whether a `status` attribute means on external power; nil for `Unknown` and anything new.
    static func charging(status: String) -> Bool? {
        switch status {
        case "Charging", "Full": true
        case "Discharging", "Not charging": false
        default: nil
        }
    }

    private func level(in folder: String) -> Double? {
        if let capacity = SystemFile.attribute(folder + "capacity").flatMap({ Double($0) }) {
            return clamp(capacity / 100)
        }
        for (now, full) in [("energy_now", "energy_full"), ("charge_now", "charge_full")] {
            if let now = SystemFile.attribute(folder + now).flatMap({ Double($0) }),
               let full = SystemFile.attribute(folder + full).flatMap({ Double($0) }), full > 0
            {
                return clamp(now / full)
            }
        }
        return nil
    }

    private func clamp(_ level: Double) -> Double? {
        level.isFinite ? min(max(level, 0), 1) : nil
    }
}
