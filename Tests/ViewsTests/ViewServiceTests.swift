import Bridge
import JSON
import Testing
@testable import Views

func call(_ service: ViewService, _ action: String, _ params: JSONValue = [:]) async throws -> JSONValue {
    let call = ServiceCall(target: "view", action: action, params: params,
                           app: AppContext(name: "test", version: "1", dataDirectory: "/nonexistent", grants: .all))
    return try await #require(service.actions[action]).perform(call)
}

@Suite("view service")
struct ViewServiceTests {
    @Test("mount refuses a bad tree with E_BAD_PARAMS and a path under /tree")
    func mountError() async throws {
        let service = ViewService()
        let tree = try JSONParser.parse(##"{"type": "stack", "children": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}, {"type": "box", "style": {"border": "wavy"}}]}"##)
        let error = try await #require(throws: BridgeError.self) { try await call(service, "mount", ["tree": tree, "output": "none"]) }
        #expect(error.code == .badParams)
        #expect(error.path == "/tree/children/2/style/border")
        #expect(error.message == "params/tree/children/2/style/border: expected one of none, single, double, rounded, heavy, got \"wavy\"")
    }

    @Test("a press reaches a waiting nextEvent with the handler the view names")
    func pressReachesNextEvent() async throws {
        let service = ViewService()
        let tree = try JSONParser.parse(taskView)
        _ = try await call(service, "mount", ["tree": tree, "data": taskData([(7, "milk")]), "output": "none", "width": 30])
        async let event = call(service, "nextEvent")
        try await Task.sleep(for: .milliseconds(20))
        _ = try await call(service, "simulate", ["type": "press", "id": "done-7"])
        #expect(try await event == ["type": "press", "handler": "tasks.toggle", "id": "done-7", "key": "7"])
    }

    @Test("a cancelled nextEvent ends, and the next event waits for the next call")
    func cancelledNextEvent() async throws {
        let service = ViewService()
        _ = try await call(service, "mount", ["tree": try JSONParser.parse(taskView), "data": taskData([(1, "a")]), "output": "none"])
        let waiting = Task { try await call(service, "nextEvent") }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        let error = await #expect(throws: BridgeError.self) { try await waiting.value }
        #expect(error?.code == .cancelled)
        _ = try await call(service, "simulate", ["type": "key", "key": "enter"])
        #expect(try await call(service, "nextEvent")["id"] == "done-1")
    }

    @Test("a nextEvent cancelled before its task ran leaves a queued event to the next call")
    func cancelledBeforeStarting() async throws {
        let service = ViewService()
        _ = try await call(service, "mount", ["tree": try JSONParser.parse(taskView), "data": taskData([(1, "a")]), "output": "none"])
        _ = try await call(service, "simulate", ["type": "key", "key": "enter"])
        // As a long-poll aborted before the pool ran its task: cancelled when it starts.
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await call(service, "nextEvent")
        }
        let error = await #expect(throws: BridgeError.self) { try await late.value }
        #expect(error?.code == .cancelled)
        #expect(try await call(service, "nextEvent")["id"] == "done-1")
    }

    @Test("simulate names what is wrong", arguments: [
        (["type": "press", "id": "nope"], "/id"), (["type": "press"], "/id"), (["type": "key", "key": "f1"], "/key"),
    ] as [(JSONValue, String)])
    func simulateErrors(_ params: JSONValue, _ path: String) async throws {
        let service = ViewService()
        _ = try await call(service, "mount", ["tree": try JSONParser.parse(taskView), "data": taskData([(1, "a")]), "output": "none"])
        let error = try await #require(throws: BridgeError.self) { try await call(service, "simulate", params) }
        #expect(error.code == .badParams && error.path == path)
    }

    @Test("update and frame before mount fail as not-mounted")
    func notMounted() async throws {
        let service = ViewService()
        for (action, params) in [("update", ["data": [:]] as JSONValue), ("frame", [:])] {
            let error = try await #require(throws: BridgeError.self) { try await call(service, action, params) }
            #expect(error.details?["reason"] == "not-mounted")
        }
    }

    @Test("update takes exactly one of data and patch, before it looks for a view", arguments: [
        [:], ["data": [:], "patch": []],
    ] as [JSONValue])
    func updateNeedsOneChange(_ params: JSONValue) async throws {
        let error = try await #require(throws: BridgeError.self) { try await call(ViewService(), "update", params) }
        #expect(error.code == .badParams && error.path == "" && error.message == "params: expected exactly one of data or patch")
    }

    @Test("mount's typed params: data defaults to {}, output must be one the contract lists")
    func mountParams() async throws {
        let service = ViewService()
        let text: JSONValue = ["type": "text", "text": "hi"]
        let mounted = try await call(service, "mount", ["tree": text, "output": "none", "width": 10])
        #expect(mounted["output"] == "none" && mounted["width"] == 10 && mounted["text"]?.stringValue?.hasPrefix("hi") == true)
        let error = try await #require(throws: BridgeError.self) { try await call(service, "mount", ["tree": text, "output": "paper"]) }
        #expect(error.path == "/output" && error.message == #"params/output: expected one of auto, terminal, plain, none, got "paper""#)
    }
}
