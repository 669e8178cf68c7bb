import Bridge
import Foundation
import JSON
import SystemIO
import Testing

@testable import Device

/// Runs one action of `service` as the bridge would, wherever it is placed.
func run(_ service: DeviceService, _ action: String, dataDirectory: String = "/nonexistent") async throws -> JSONValue {
    let call = ServiceCall(
        target: service.target, action: action, params: [:],
        app: AppContext(name: "test", version: "1.0.0", dataDirectory: dataDirectory, grants: .all)
    )
    return try await #require(service.actions[action], "no action \(action)").perform(call)
}

/// A fresh folder under the system's temporary folder, removed by `body`'s end.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("device-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// The live machine, but with `environment` in place of the process's.
func liveSources(environment: [String: String]) -> DeviceSources {
    var sources = DeviceSources.live
    sources.environment = { environment[$0] }
    return sources
}

let service = DeviceService(hostVersion: "9.8.7", engine: "JavaScriptCore test")

@Suite("device service")
struct DeviceServiceTests {
    @Test("info answers every key of its contract with plausible values")
    func infoIsPlausible() async throws {
        let info = try await run(service, "info")
        try ContractCheck.assertConforms(info, action: "info")

        #expect(info["platform"] == "linux")
        #expect(try #require(info["cpuCount"]?.intValue) >= 1)
        let total = try #require(info["memoryTotal"]?.intValue)
        let available = try #require(info["memoryAvailable"]?.intValue)
        #expect(total > available)
        #expect(available > 0)
        #expect(try #require(info["uptimeSeconds"]?.numberValue) > 0)
        #expect(info["kernel"]?.stringValue == shell("uname", "-r"))
        #expect(info["arch"]?.stringValue == shell("uname", "-m"))
        #expect(info["hostname"]?.stringValue?.isEmpty == false)
        #expect(info["osName"]?.stringValue?.isEmpty == false)
        #expect(info["hostVersion"] == "9.8.7")
        #expect(info["engine"] == "JavaScriptCore test")
        #expect(info["timezone"]?.stringValue?.isEmpty == false)
    }

    @Test("info takes the locale from LC_ALL, LC_MESSAGES or LANG and its tag from that")
    func infoLocale() async throws {
        let german = DeviceService(hostVersion: "1", engine: "e", sources: liveSources(environment: ["LANG": "de_DE.UTF-8"]))
        let info = try await run(german, "info")
        #expect(info["locale"] == "de_DE.UTF-8")
        #expect(info["languageTag"] == "de-DE")

        let unset = DeviceService(hostVersion: "1", engine: "e", sources: liveSources(environment: [:]))
        let plain = try await run(unset, "info")
        #expect(plain["locale"] == "C")
        #expect(plain["languageTag"] == "en-US")
    }

    @Test("info fails as unreadable, naming the file, when /proc/meminfo cannot be read")
    func infoUnreadable() async throws {
        try await withTemporaryDirectory { empty in
            var sources = DeviceSources.live
            sources.procDirectory = empty
            let broken = DeviceService(hostVersion: "1", engine: "e", sources: sources)
            let error = try await #require(throws: BridgeError.self) { try await run(broken, "info") }
            #expect(error.code == .failed)
            #expect(error.details?["reason"] == "unreadable")
            #expect(error.message.hasPrefix(empty + "/meminfo: "))
        }
    }

    @Test("languageTag answers {value} with the locale's BCP 47 tag")
    func languageTag() async throws {
        let serbian = DeviceService(hostVersion: "1", engine: "e", sources: liveSources(environment: ["LC_ALL": "sr_RS.UTF-8@latin"]))
        let answer = try await run(serbian, "languageTag")
        try ContractCheck.assertConforms(answer, action: "languageTag")
        #expect(answer == ["value": "sr-Latn-RS"])
    }

    @Test("battery answers its contract's shape on this machine")
    func batteryShape() async throws {
        let battery = try await run(service, "battery")
        try ContractCheck.assertConforms(battery, action: "battery")
        if battery["present"] == false {
            #expect(battery["level"] == .null)
            #expect(battery["charging"] == .null)
        }
    }

    @Test("battery reports none when the power_supply folder has no battery")
    func batteryAbsent() async throws {
        try await withTemporaryDirectory { root in
            var sources = DeviceSources.live
            sources.powerSupplyDirectory = root
            let answer = try await run(DeviceService(hostVersion: "1", engine: "e", sources: sources), "battery")
            #expect(answer == ["present": false, "level": nil, "charging": nil])
        }
    }

    @Test("screen answers its contract's shape, 80×24 or larger")
    func screenShape() async throws {
        let screen = try await run(service, "screen")
        try ContractCheck.assertConforms(screen, action: "screen")
        #expect(try #require(screen["columns"]?.intValue) >= 1)
        #expect(try #require(screen["rows"]?.intValue) >= 1)
    }

    @Test("screen honours NO_COLOR")
    func screenNoColor() async throws {
        let environment = ["NO_COLOR": "1", "TERM": "xterm-256color", "COLORTERM": "truecolor"]
        let plain = DeviceService(hostVersion: "1", engine: "e", sources: liveSources(environment: environment))
        #expect(try await run(plain, "screen")["colors"] == 0)
    }

    @Test("screen falls back to COLUMNS and LINES when standard output is not a terminal")
    func screenFromEnvironment() async throws {
        guard isatty(STDOUT_FILENO) == 0 else { return }
        let sized = DeviceService(hostVersion: "1", engine: "e", sources: liveSources(environment: ["COLUMNS": "132", "LINES": "43"]))
        let screen = try await run(sized, "screen")
        #expect(screen["columns"] == 132)
        #expect(screen["rows"] == 43)
    }
}

@Suite("device id")
struct DeviceIdentifierTests {
    @Test("id is a lowercase version 4 UUID kept in <data dir>/device-id")
    func idShape() async throws {
        try await withTemporaryDirectory { directory in
            let answer = try await run(service, "id", dataDirectory: directory)
            try ContractCheck.assertConforms(answer, action: "id")
            let id = try #require(answer["id"]?.stringValue)
            #expect(isVersion4(id))
            let stored = try String(contentsOfFile: directory + "/device-id", encoding: .utf8)
            #expect(stored == id + "\n")
        }
    }

    @Test("id is the same across two service instances")
    func idStable() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await run(DeviceService(hostVersion: "1", engine: "a"), "id", dataDirectory: directory)
            let second = try await run(DeviceService(hostVersion: "2", engine: "b"), "id", dataDirectory: directory)
            #expect(first == second)
        }
    }

    @Test("50 concurrent first calls agree on one id and leave no temporary file behind")
    func idConcurrent() async throws {
        try await withTemporaryDirectory { directory in
            let ids = try await withThrowingTaskGroup(of: JSONValue.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        try await run(DeviceService(hostVersion: "\(index)", engine: "e"), "id", dataDirectory: directory)
                    }
                }
                return try await group.reduce(into: Set<JSONValue>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["device-id"])
        }
    }

    @Test("a corrupt id file is replaced by a valid UUID, which then stays")
    func idCorrupt() async throws {
        try await withTemporaryDirectory { directory in
            try "not a uuid\n".write(toFile: directory + "/device-id", atomically: false, encoding: .utf8)
            let replaced = try #require(try await run(service, "id", dataDirectory: directory)["id"]?.stringValue)
            #expect(isVersion4(replaced))
            #expect(try await run(service, "id", dataDirectory: directory)["id"]?.stringValue == replaced)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["device-id"])
        }
    }

    @Test("an id file written by hand in upper case is kept, read as lower case")
    func idUpperCase() async throws {
        try await withTemporaryDirectory { directory in
            try "0B0E4A4C-3F2D-4C55-9A1E-6F1E2D3C4B5A".write(toFile: directory + "/device-id", atomically: false, encoding: .utf8)
            #expect(try await run(service, "id", dataDirectory: directory)["id"] == "0b0e4a4c-3f2d-4c55-9a1e-6f1e2d3c4b5a")
        }
    }

    @Test("id fails as unwritable when the data directory cannot be created")
    func idUnwritable() async throws {
        try await withTemporaryDirectory { directory in
            try "a file".write(toFile: directory + "/file", atomically: false, encoding: .utf8)
            let error = try await #require(throws: BridgeError.self) {
                try await run(service, "id", dataDirectory: directory + "/file/below")
            }
            #expect(error.code == .failed)
            #expect(error.details?["reason"] == "unwritable")
        }
    }

    private func isVersion4(_ id: String) -> Bool {
        let pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        return id.wholeMatch(of: pattern) != nil
    }
}

/// What a command prints, without its final line break.
func shell(_ arguments: String...) -> String? {
    guard let result = try? ChildProcess.run("/usr/bin/env", arguments) else { return nil }
    return String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
