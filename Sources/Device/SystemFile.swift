import SystemIO

/// How the device service reads sysfs.
enum SystemFile {
    /// The file's text with surrounding white space removed, or nil on any failure: for sysfs
    /// attributes, which a driver may refuse to read (`EIO`, `ENODEV`) when a device is absent.
    static func attribute(_ path: String) -> String? {
        guard let text = try? FileSystem.text(atPath: path) else { return nil }
        return text.trimmingWhiteSpace()
    }
}
