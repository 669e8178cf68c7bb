import Crypto

/// Which devices a rollout of P percent reaches: a device's bucket (0..<10000) comes from
/// SHA-256("APP\nPATCHVERSION\nDEVICEID"), so each patch draws its own cohort, and raising the
/// percentage only adds devices (a bucket below the old bound is below the new one).
public enum PatchCohort {
    public static let buckets: UInt64 = 10_000

    public static func bucket(app: String, patchVersion: Int, deviceId: String) -> Int {
        let digest = Array(SHA256.hash(data: Array("\(app)\n\(patchVersion)\n\(deviceId)".utf8)))
        var value: UInt64 = 0
        for byte in digest[0..<8] { value = value << 8 | UInt64(byte) }
        return Int(value % buckets)
    }

    /// Whether a rollout of `percent` (0.01...100, steps of 0.01) offers the patch to the device.
    public static func contains(app: String, patchVersion: Int, deviceId: String, percent: Double) -> Bool {
        bucket(app: app, patchVersion: patchVersion, deviceId: deviceId) < Int((percent * 100).rounded())
    }
}
