import Bridge
import SystemIO

/// Serializes one run's read-or-create of `<data dir>/device-id` (``DeviceIdentifier/stored(inDirectory:)``
/// in SystemIO, which the patch loader reads too), with errors as bridge errors.
actor DeviceIdentifierStore {
    func identifier(inDirectory directory: String) throws(BridgeError) -> DeviceIdentifier {
        do {
            _ = try FileSystem.textIfPresent(atPath: directory + "/" + DeviceIdentifier.fileName)
        } catch {
            throw BridgeError.failed(reason: "unreadable", error.description)
        }
        do {
            return try DeviceIdentifier.stored(inDirectory: directory)
        } catch {
            throw BridgeError.failed(reason: "unwritable", error.description)
        }
    }
}
