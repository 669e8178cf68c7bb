// The Device module: the `device` target, which tells a script what machine it runs on (system,
// memory, locale, time zone, battery, terminal) and gives it a stable device id.
//
// It only reads: `/proc`, `/sys`, `/etc`, the environment and `uname`. The one file it writes is
// `<data dir>/device-id`. It never prints (stdout belongs to the app) and never imports another
// service.
import Bridge
import Glibc
import JSON
import SystemIO

/// The `device` target (contract `services/device.json`).
///
/// ```swift
/// let registry = [DeviceService(hostVersion: "0.1.0", engine: "JavaScriptCore 2.50.6")]
/// // JS: const {osName, memoryTotal} = await Hybrid.call("device", "info", {})
/// ```
///
/// Every action runs on a worker: each reads a few small files, cheap but still I/O.
public struct DeviceService: BridgeService {
    public let target = "device"

    private let hostVersion: String
    private let engine: String
    private let sources: DeviceSources
    private let identifiers = DeviceIdentifierStore()

    /// - Parameters:
    ///   - hostVersion: the host program's version, reported by `info`.
    ///   - engine: the JavaScript engine and its version, reported by `info`.
    public init(hostVersion: String, engine: String) {
        self.init(hostVersion: hostVersion, engine: engine, sources: .live)
    }

    init(hostVersion: String, engine: String, sources: DeviceSources) {
        self.hostVersion = hostVersion
        self.engine = engine
        self.sources = sources
    }

    public var actions: [String: ServiceAction] {
        [
            "info": .worker { _ in try info() },
            "languageTag": .worker { _ in ["value": .string(LanguageTag.from(locale: locale))] },
            "battery": .worker { _ in battery() },
            "screen": .worker { _ in screen() },
            "id": .worker { call in
                let identifier = try await identifiers.identifier(inDirectory: call.app.dataDirectory)
                return ["id": .string(identifier.description)]
            },
        ]
    }

    private var locale: String { LocaleSetting.resolve(environment: sources.environment) }

    private func info() throws(BridgeError) -> JSONValue {
        let release = try osRelease()
        let memoryPath = sources.procDirectory + "/meminfo"
        guard let memory = MemoryInfo.parse(try readRequired(memoryPath)) else {
            throw BridgeError.failed(reason: "unreadable", "\(memoryPath): expected a MemTotal line")
        }
        let uptimePath = sources.procDirectory + "/uptime"
        guard let uptime = Uptime.parse(try readRequired(uptimePath)) else {
            throw BridgeError.failed(reason: "unreadable", "\(uptimePath): expected seconds since boot")
        }
        let system = SystemName.current()
        let locale = self.locale
        return [
            "platform": "linux",
            "osName": .string(release.osName),
            "osVersion": .string(release.osVersion),
            "kernel": .string(system.release),
            "arch": .string(system.machine),
            "hostname": .string(system.nodeName),
            "cpuCount": .number(Double(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))),
            "memoryTotal": .number(Double(memory.total)),
            "memoryAvailable": .number(Double(memory.available)),
            "locale": .string(locale),
            "languageTag": .string(LanguageTag.from(locale: locale)),
            "timezone": .string(TimeZoneName.resolve(environment: sources.environment, etcDirectory: sources.etcDirectory)),
            "uptimeSeconds": .number(uptime),
            "hostVersion": .string(hostVersion),
            "engine": .string(engine),
        ]
    }

    /// os-release(5) says to read `/etc/os-release`, else `/usr/lib/os-release`; a system with
    /// neither is still Linux, so their absence is not an error.
    private func osRelease() throws(BridgeError) -> OSRelease {
        for path in [sources.etcDirectory + "/os-release", sources.usrLibDirectory + "/os-release"] {
            do {
                if let text = try FileSystem.textIfPresent(atPath: path) { return OSRelease.parse(text) }
            } catch {
                throw BridgeError.failed(reason: "unreadable", error.description)
            }
        }
        return OSRelease(fields: [:])
    }

    private func readRequired(_ path: String) throws(BridgeError) -> String {
        do {
            return try FileSystem.text(atPath: path)
        } catch {
            throw BridgeError.failed(reason: "unreadable", error.description)
        }
    }

    private func battery() -> JSONValue {
        let status = BatteryReader(root: sources.powerSupplyDirectory).read()
        return [
            "present": .bool(status.present),
            "level": status.level.map(JSONValue.number) ?? .null,
            "charging": status.charging.map(JSONValue.bool) ?? .null,
        ]
    }

    private func screen() -> JSONValue {
        let screen = TerminalScreen.current(environment: sources.environment)
        return [
            "columns": .number(Double(screen.columns)),
            "rows": .number(Double(screen.rows)),
            "colors": .number(Double(screen.colors)),
        ]
    }
}
