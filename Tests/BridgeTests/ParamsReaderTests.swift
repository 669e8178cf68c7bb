import Bridge
import JSON
import Testing

/// A typed params value with every kind of field, as a service would write one.
struct SampleParams: ActionParams, Equatable {
    enum Keep: String, CaseIterable, ParamValue { case local, remote }

    struct Line: ActionParams, Equatable {
        let sku: String
        let qty: Int
        let tags: [String]?

        init(from params: ParamsReader) throws(BridgeError) {
            sku = try params.required("sku")
            qty = try params.required("qty")
            tags = try params.optional("tags")
        }
    }

    let name: String
    let limit: Int?
    let ratio: Double?
    let flag: Bool
    let keep: Keep?
    let filter: JSONObject?
    let value: JSONValue?
    let lines: [Line]?
    let timeoutMs: Int

    init(from params: ParamsReader) throws(BridgeError) {
        name = try params.required("name")
        limit = try params.optional("limit")
        ratio = try params.optional("ratio")
        flag = try params.optional("flag") ?? false
        keep = try params.optional("keep")
        filter = try params.optional("where")
        value = try params.optional("value")
        lines = try params.optional("lines")
        timeoutMs = try params.optional("timeoutMs") ?? 30_000
    }
}

@Suite("params reader")
struct ParamsReaderTests {
    @Test("a params object decodes into its typed value, optional fields nil or their default when absent")
    func decodes() throws {
        let full = try SampleParams(param: [
            "name": "milk", "limit": 20, "ratio": 0.5, "flag": true, "keep": "remote", "where": ["done": false],
            "value": nil, "lines": [["sku": "a", "qty": 2, "tags": ["x"]], ["sku": "b", "qty": 1]], "timeoutMs": 5,
        ], at: .root)
        #expect(full.name == "milk" && full.limit == 20 && full.ratio == 0.5 && full.flag && full.keep == .remote)
        #expect(full.filter == ["done": false])
        #expect(full.value == .null, "a present null is a value for a free-form field")
        #expect(full.lines?.map(\.sku) == ["a", "b"] && full.lines?[0].tags == ["x"] && full.lines?[1].tags == nil)
        #expect(full.timeoutMs == 5)

        let bare = try SampleParams(param: ["name": "milk"], at: .root)
        #expect(bare.limit == nil && bare.ratio == nil && !bare.flag && bare.keep == nil && bare.filter == nil && bare.value == nil)
        #expect(bare.lines == nil && bare.timeoutMs == 30_000)
    }

    @Test("an integer field takes any integral number an Int holds, not only those below 2^53")
    func largeIntegers() throws {
        #expect(try SampleParams(param: ["name": "a", "limit": 1e16], at: .root).limit == 10_000_000_000_000_000)
        #expect(try SampleParams(param: ["name": "a", "limit": -3], at: .root).limit == -3)
    }

    struct BadShape: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let params: JSONValue
        let path: String
        let message: String
    }

    static let badShapes: [BadShape] = [
        .init(testDescription: "params that are not an object", params: [1, 2], path: "", message: "params: expected an object, got array"),
        .init(testDescription: "a missing required field", params: [:], path: "/name",
              message: #"params/name: missing required property "name" (expected a string)"#),
        .init(testDescription: "a number for a string", params: ["name": 5], path: "/name", message: "params/name: expected a string, got 5"),
        .init(testDescription: "a fraction for an integer", params: ["name": "a", "limit": 1.5], path: "/limit",
              message: "params/limit: expected an integer, got 1.5"),
        .init(testDescription: "a number too large for an Int", params: ["name": "a", "limit": 1e300], path: "/limit",
              message: "params/limit: expected an integer, got 1e+300"),
        .init(testDescription: "a string for an integer", params: ["name": "a", "limit": "3"], path: "/limit",
              message: #"params/limit: expected an integer, got "3""#),
        .init(testDescription: "null for a boolean", params: ["name": "a", "flag": nil], path: "/flag",
              message: "params/flag: expected a boolean, got null"),
        .init(testDescription: "a value outside an enum", params: ["name": "a", "keep": "both"], path: "/keep",
              message: #"params/keep: expected one of local, remote, got "both""#),
        .init(testDescription: "an array for an object", params: ["name": "a", "where": [1]], path: "/where",
              message: "params/where: expected an object, got array"),
        .init(testDescription: "an object for an array", params: ["name": "a", "lines": ["sku": "a"]], path: "/lines",
              message: "params/lines: expected an array, got object"),
        .init(testDescription: "an item that is not an object", params: ["name": "a", "lines": [["sku": "a", "qty": 1], 7]],
              path: "/lines/1", message: "params/lines/1: expected an object, got 7"),
        .init(testDescription: "an item missing a field", params: ["name": "a", "lines": [["sku": "a", "qty": 1], ["sku": "b"]]],
              path: "/lines/1/qty", message: #"params/lines/1/qty: missing required property "qty" (expected an integer)"#),
        .init(testDescription: "a bad element deep in an item", params: ["name": "a", "lines": [["sku": "a", "qty": 1, "tags": ["x", false]]]],
              path: "/lines/0/tags/1", message: "params/lines/0/tags/1: expected a string, got boolean"),
        .init(testDescription: "a long string, named by its length", params: ["name": "a", "limit": .string(String(repeating: "x", count: 41))],
              path: "/limit", message: "params/limit: expected an integer, got a string of 41 characters"),
    ]

    @Test("a shape the type cannot read is E_BAD_PARAMS naming the path and what was expected", arguments: badShapes)
    func badShape(_ bad: BadShape) {
        #expect {
            try SampleParams(param: bad.params, at: .root)
        } throws: { error in
            guard let error = error as? BridgeError else { return false }
            return error.code == .badParams && error.path == bad.path && error.message == bad.message
        }
    }

    @Test("a path is joined only when asked, and escapes its keys as RFC 6901 says")
    func paths() {
        let item = ParamsPath.root.appending(key: "items").appending(index: 3)
        #expect(item.appending(key: "key").pointer == "/items/3/key")
        #expect(item.appending(key: "key").appending(index: 0).appending(key: "a/b~c").pointer == "/items/3/key/0/a~1b~0c")
        #expect(ParamsPath("/ops/1").appending(key: "records").appending(index: 0).pointer == "/ops/1/records/0")
        #expect(ParamsPath.root.pointer == "")
    }

    @Test("each typed factory decodes before its body runs, through a real bridge", arguments: ["typed", "typedAnswer", "typedLater", "typedOnLoop"])
    func throughTheBridge(action: String) async throws {
        try await withBridge { (host) async throws in
            let answer = try await host.run(#"return await Hybrid.call("probe", "\#(action)", {items: [{sku: "a", qty: 2}, {sku: "b", qty: 3}]});"#)
            #expect(answer == ["skus": ["a", "b"], "total": 5])
        }
    }

    @Test("a contract looser than the type lets a value through that the type refuses: E_BAD_PARAMS at its path, the body never runs",
          arguments: ["typed", "typedAnswer", "typedLater", "typedOnLoop"])
    func looserContract(action: String) async throws {
        try await withBridge { (host) async throws in
            // The probe's contract says qty is a number; the type wants an integer.
            let error = try await host.run(#"return await outcome(Hybrid.call("probe", "\#(action)", {items: [{sku: "a", qty: 2}, {sku: "b", qty: 1.5}]}));"#)
            #expect(error["code"] == "E_BAD_PARAMS")
            #expect(error["path"] == "/items/1/qty")
            #expect(error["message"] == "params/items/1/qty: expected an integer, got 1.5")
            #expect(host.observer.started(of: action) == 0)
        }
    }
}

/// The params of the probe's typed actions.
struct ProbeOrder: ActionParams {
    let items: [SampleParams.Line]

    init(from params: ParamsReader) throws(BridgeError) {
        items = try params.required("items")
    }

    /// What the typed actions answer: the skus and the total quantity.
    var summary: JSONValue {
        ["skus": .array(items.map { .string($0.sku) }), "total": .number(Double(items.reduce(0) { $0 + $1.qty }))]
    }
}
