import Foundation
import Testing

@testable import Device

/// A `/sys/class/power_supply` stand-in: one folder per supply, one file per attribute.
struct PowerSupplyFixture: ~Copyable {
    let root: String

    init(_ supplies: [String: [String: String]]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("power-supply-\(UUID().uuidString)").path
        for (name, attributes) in supplies {
            let folder = root + "/" + name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (attribute, value) in attributes {
                try (value + "\n").write(toFile: folder + "/" + attribute, atomically: false, encoding: .utf8)
            }
        }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func read() -> BatteryStatus { BatteryReader(root: root).read() }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

@Suite("battery")
struct BatteryReaderTests {
    static let mains = ["type": "Mains", "online": "1"]

    @Test("a charging battery", arguments: [("Charging", true), ("Discharging", false), ("Full", true), ("Not charging", false)])
    func status(status: String, charging: Bool) throws {
        let fixture = try PowerSupplyFixture(["AC": Self.mains, "BAT0": ["type": "Battery", "capacity": "80", "status": status]])
        #expect(fixture.read() == BatteryStatus(present: true, level: 0.8, charging: charging))
    }

    @Test("a full battery on mains")
    func full() throws {
        let fixture = try PowerSupplyFixture(["AC": Self.mains, "BAT1": ["type": "Battery", "capacity": "100", "status": "Full", "present": "1"]])
        #expect(fixture.read() == BatteryStatus(present: true, level: 1, charging: true))
    }

    @Test("an Unknown or missing status leaves charging null")
    func unknownStatus() throws {
        let unknown = try PowerSupplyFixture(["BAT0": ["type": "Battery", "capacity": "42", "status": "Unknown"]])
        #expect(unknown.read() == BatteryStatus(present: true, level: 0.42, charging: nil))
        let missing = try PowerSupplyFixture(["BAT0": ["type": "Battery"]])
        #expect(missing.read() == BatteryStatus(present: true, level: nil, charging: nil))
    }

    @Test("without capacity, the level is energy_now / energy_full, or charge_now / charge_full")
    func energy() throws {
        let energy = try PowerSupplyFixture(["BAT0": ["type": "Battery", "energy_now": "25000000", "energy_full": "50000000", "status": "Discharging"]])
        #expect(energy.read() == BatteryStatus(present: true, level: 0.5, charging: false))
        let charge = try PowerSupplyFixture(["BAT0": ["type": "Battery", "charge_now": "750", "charge_full": "1000"]])
        #expect(charge.read().level == 0.75)
    }

    @Test("two batteries: the mean level, charging if either is")
    func two() throws {
        let fixture = try PowerSupplyFixture([
            "BAT0": ["type": "Battery", "capacity": "40", "status": "Discharging"],
            "BAT1": ["type": "Battery", "capacity": "60", "status": "Charging"],
        ])
        #expect(fixture.read() == BatteryStatus(present: true, level: 0.5, charging: true))
    }

    @Test("no battery: only mains, a peripheral's battery, an empty bay, or no folder at all")
    func none() throws {
        let fixture = try PowerSupplyFixture([
            "AC": Self.mains,
            "hidpp_battery_0": ["type": "Battery", "scope": "Device", "capacity": "10", "status": "Discharging"],
            "BAT0": ["type": "Battery", "present": "0"],
        ])
        #expect(fixture.read() == .absent)
        #expect(try PowerSupplyFixture([:]).read() == .absent)
        #expect(BatteryReader(root: fixture.root + "/missing").read() == .absent)
    }

    @Test("a capacity out of range is clamped to 0...1")
    func clamped() throws {
        let fixture = try PowerSupplyFixture(["BAT0": ["type": "Battery", "capacity": "104"]])
        #expect(fixture.read().level == 1)
    }
}
