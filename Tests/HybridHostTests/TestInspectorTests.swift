import Foundation
import HostTesting
import JSON
import SystemIO
import Testing

/// `hybrid test --inspect-brk` as a debugger meets it: the real binary, one WebSocket, each test
/// file's context a target of the `Target` domain in turn, paused and resumed on its own JS thread.
@Suite("The inspector of a test run", .timeLimit(.minutes(3)))
struct TestInspectorTests {
    static let folder = HybridProcess.repository.appendingPathComponent("Tests/DebugAdapter/fixtures/debug-tests").path

    @Test("--inspect-brk serves two test files as two targets, one after the other; the first pauses at its first statement, the second at a breakpoint")
    func twoTargets() async throws {
        let process = try LiveProcess(HybridProcess.binary.path, ["test", Self.folder, "--inspect-brk"], environment: ["HYBRID_INSPECTOR_TRACE": "1"])
        var finished = false
        defer {
            if !finished { print("hybrid test --inspect-brk (exit \(String(describing: process.output.exitStatus))); stderr:\n\(process.output.standardError.suffix(6000))") }
            process.stop()
        }
        let listening = await process.wait(timeout: 60) { $0.standardError.contains("Debugger listening") || $0.exitStatus != nil }
        try #require(listening, "no URL on stderr: \(process.output.standardError)")
        let line = try #require(process.output.standardError.split(separator: "\n").first { $0.hasPrefix("Debugger listening") })
        let session = try await InspectorProbe.connect(String(try #require(line.split(separator: " ").last)))
        let debugger = TargetDebugger(session)

        // The first file: listed as waiting; nothing runs until the debugger says it is ready.
        let first = try await session.event("Target.targetCreated")["targetInfo"] ?? .null
        let firstID = try #require(first["targetId"]?.stringValue)
        #expect(first["title"]?.stringValue?.hasSuffix("first.test.ts") == true, "\(first)")
        #expect(first["isPaused"] == .bool(true))
        _ = try await debugger.call(firstID, "Debugger.enable")
        let url = try #require(FileSystem.realPath(Self.folder + "/second.test.js"))
        _ = try await debugger.call(firstID, "Debugger.setBreakpointByUrl", ["url": .string(url), "lineNumber": .number(8)])
        try await Task.sleep(for: .milliseconds(300))
        #expect(!process.output.standardOutput.contains("ok 1 - adds"), "no test ran: \(process.output.standardOutput)")
        _ = try await debugger.call(firstID, "Runtime.runIfWaitingForDebugger")
        let entry = try await debugger.event(firstID, "Debugger.paused")
        let entryScript = entry["callFrames"]?[0]?["location"]?["scriptId"]?.stringValue ?? ""
        #expect(debugger.scripts[entryScript]?.hasSuffix("first.test.ts") == true, "the entry pause is in the first file's own code")
        _ = try await debugger.call(firstID, "Debugger.resume")

        // The first file ends; the second is listed, waits, and pauses at the breakpoint set for it.
        _ = try await session.event("Target.targetDestroyed") { $0["targetId"]?.stringValue == firstID }
        // An ended target, and a message outside the Target domain, are refused by name.
        let stale = try await session.answer("Target.sendMessageToTarget", ["targetId": .string(firstID), "message": "{\"id\":1,\"method\":\"Runtime.enable\"}"])
        #expect(stale["error"]?["message"]?.stringValue?.contains("no target \(firstID)") == true, "\(stale)")
        let bare = try await session.answer("Runtime.evaluate", ["expression": "1"])
        #expect(bare["error"]?["message"]?.stringValue?.hasPrefix("expected Target.sendMessageToTarget") == true, "\(bare)")
        let second = try await session.event("Target.targetCreated")["targetInfo"] ?? .null
        let secondID = try #require(second["targetId"]?.stringValue)
        #expect(secondID != firstID)
        #expect(second["title"]?.stringValue?.hasSuffix("second.test.js") == true, "\(second)")
        _ = try await debugger.call(secondID, "Debugger.enable")
        // The hub turns breakpoints on for the first file's entry pause only.
        _ = try await debugger.call(secondID, "Debugger.setBreakpointsActive", ["active": true])
        _ = try await debugger.call(secondID, "Debugger.setBreakpointByUrl", ["url": .string(url), "lineNumber": .number(8)])
        _ = try await debugger.call(secondID, "Runtime.runIfWaitingForDebugger")
        let hit = try await debugger.event(secondID, "Debugger.paused")
        let frame = hit["callFrames"]?[0] ?? .null
        #expect(frame["location"]?["lineNumber"]?.intValue == 8, "\(frame)")
        let frameID = try #require(frame["callFrameId"]?.stringValue)
        let value = try await debugger.call(secondID, "Debugger.evaluateOnCallFrame", ["callFrameId": .string(frameID), "expression": "product", "returnByValue": true])
        #expect(value["result"]?["value"]?.intValue == 42, "\(value)")
        _ = try await debugger.call(secondID, "Debugger.resume")

        let ended = await process.wait(timeout: 60) { $0.exitStatus != nil }
        #expect(ended)
        #expect(process.output.exitStatus == 0, "\(process.output.standardOutput)")
        #expect(process.output.standardOutput.contains("# pass 2\n"), "\(process.output.standardOutput)")
        session.close()
        finished = true
    }
}

/// `Target.sendMessageToTarget` calls, answered in `Target.dispatchMessageFromTarget` events.
final class TargetDebugger: @unchecked Sendable {
    // @unchecked: used by one test task at a time.
    let session: InspectorProbe
    private var nextID = 1
    /// Each parsed script's URL, by scriptId, as the events were read.
    private(set) var scripts: [String: String] = [:]

    init(_ session: InspectorProbe) { self.session = session }

    @discardableResult
    func call(_ target: String, _ method: String, _ params: JSONObject = [:]) async throws -> JSONValue {
        let id = nextID
        nextID += 1
        let message = JSONWriter.write(["id": .number(Double(id)), "method": .string(method), "params": .object(params)])
        _ = try await session.call("Target.sendMessageToTarget", ["targetId": .string(target), "message": .string(message)])
        let answer = try await inner(target) { $0["id"]?.intValue == id }
        if let error = answer["error"] { Issue.record("\(method): \(error)") }
        return answer["result"] ?? .null
    }

    func event(_ target: String, _ method: String) async throws -> JSONValue {
        try await inner(target) { $0["method"]?.stringValue == method }["params"] ?? .null
    }

    private func inner(_ target: String, _ matches: @escaping (JSONValue) -> Bool) async throws -> JSONValue {
        var found: JSONValue?
        _ = try await session.event("Target.dispatchMessageFromTarget") { params in
            guard params["targetId"]?.stringValue == target, let text = params["message"]?.stringValue,
                  let message = try? JSONParser.parse(text) else { return false }
            if message["method"]?.stringValue == "Debugger.scriptParsed", let id = message["params"]?["scriptId"]?.stringValue {
                self.scripts[id] = message["params"]?["url"]?.stringValue
            }
            guard matches(message) else { return false }
            found = message
            return true
        }
        return found ?? .null
    }
}
