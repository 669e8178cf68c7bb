@testable import DebugAdapter
import JSON
import Testing

/// The translation between DAP and the inspector, piece by piece: what a breakpoint's fields
/// become, how a remote value reads, where a position goes through the module wrapper.
@Suite("debug adapter translation")
struct TranslationTests {
    @Test("a hit condition is an operator and a count; a bare count means from that hit on", arguments: [
        ("3", ">=", 3), (">= 3", ">=", 3), ("> 2", ">", 2), ("== 4", "===", 4), ("===4", "===", 4), ("< 5", "<", 5), ("<=5", "<=", 5), ("% 2", "%", 2),
    ])
    func hitConditions(text: String, operation: String, count: Int) throws {
        let parsed = try BreakpointCondition.parseHitCondition(text)
        #expect(parsed.operation == operation && parsed.count == count)
    }

    @Test("a hit condition that is not one is refused, naming the field", arguments: ["", "three", ">= x", "-1", "=> 3"])
    func badHitConditions(text: String) {
        #expect {
            try BreakpointCondition.parseHitCondition(text)
        } throws: { error in
            (error as? DebugAdapterError)?.message.hasPrefix("hitCondition: expected a count") == true
        }
    }

    @Test("a breakpoint with none of condition, hit count or message always stops")
    func plainBreakpoint() throws {
        #expect(try BreakpointCondition.javaScript(condition: nil, hitCondition: nil, logMessage: nil, key: "b1") == nil)
        #expect(try BreakpointCondition.javaScript(condition: "  ", hitCondition: "", logMessage: nil, key: "b1") == nil)
    }

    @Test("a condition, a hit count and a logpoint join into one condition, the log last and false")
    func joined() throws {
        let condition = try #require(try BreakpointCondition.javaScript(condition: "n > 1", hitCondition: "% 2", logMessage: "n is {n}", key: "b7"))
        #expect(condition.hasPrefix("(n > 1) && "))
        #expect(condition.contains("[\"b7\"]"))
        #expect(condition.contains("% 2 === 0"))
        #expect(condition.hasSuffix("(console.log(`n is ${n}`), false)"))
    }

    @Test("a logpoint's message becomes a template literal: braces interpolate, backticks and dollars stay text", arguments: [
        ("plain", "`plain`"),
        ("x is {x}", "`x is ${x}`"),
        ("{a.b} and {f({k: 1})}", "`${a.b} and ${f({k: 1})}`"),
        ("cost $5 `q`", "`cost \\$5 \\`q\\``"),
        ("\\{literal}", "`{literal}`"),
        ("open {x", "`open ${x}`"),
    ])
    func logTemplates(message: String, expected: String) {
        #expect(BreakpointCondition.template(message) == expected)
    }

    @Test("remote values read as the variables pane shows them", arguments: [
        (#"{"type": "string", "value": "milk"}"#, "\"milk\"", "string", false),
        (#"{"type": "number", "value": 42, "description": "42"}"#, "42", "number", false),
        (#"{"type": "undefined"}"#, "undefined", "undefined", false),
        (#"{"type": "object", "subtype": "null", "value": null}"#, "null", "null", false),
        (#"{"type": "bigint", "description": "12"}"#, "12n", "bigint", false),
        (#"{"type": "object", "subtype": "array", "className": "Array", "description": "Array", "size": 3, "objectId": "o1"}"#, "Array(3)", "Array", true),
        (#"{"type": "object", "className": "Object", "description": "Object", "objectId": "o2", "preview": {"type": "object", "lossless": true,"#
            + #""properties": [{"name": "n", "type": "number", "value": "1"}, {"name": "s", "type": "string", "value": "a"}]}}"#,
         "{n: 1, s: \"a\"}", "Object", true),
        (#"{"type": "object", "subtype": "map", "className": "Map", "description": "Map", "size": 1, "objectId": "o3", "preview": {"type": "object","#
            + #""subtype": "map", "lossless": true, "entries": [{"key": {"type": "string", "description": "a", "lossless": true},"#
            + #""value": {"type": "number", "description": "1", "lossless": true}}]}}"#,
         "Map(1) {\"a\" => 1}", "Map", true),
        (#"{"type": "function", "description": "function total(items) {\n  return 1;\n}", "objectId": "o4", "className": "Function"}"#,
         "function total(items) {", "function", true),
    ])
    func remoteValues(json: String, display: String, type: String, expandable: Bool) throws {
        let value = RemoteValue(object: try #require(try JSONParser.parse(json).objectValue))
        #expect(value.display == display)
        #expect(value.typeName == type)
        #expect(value.isExpandable == expandable)
    }

    @Test("a module's line 0 columns lose the wrapper the host puts before its code; other lines keep theirs")
    func wrapperColumns() {
        let script = LoadedScript(id: "1", url: "/app/main.js", sourceMapURL: nil)
        let wrapper = LoadedScript.moduleWrapperPrefix.utf16.count
        #expect(script.original(line: 0, column: wrapper + 4) == ("/app/main.js", 0, 4))
        #expect(script.original(line: 3, column: 2) == ("/app/main.js", 3, 2))
        #expect(script.generated(path: "/app/main.js", line: 0)! == (0, wrapper))
        #expect(script.generated(path: "/app/main.js", line: 5)! == (5, 0))
    }

    @Test("a TypeScript module's positions go through its data: URL source map, both ways")
    func sourceMapped() throws {
        // Generated line 2 from original line 0, line 3 from original line 2.
        let map = #"{"version": 3, "sources": ["main.ts"], "names": [], "mappings": ";;AAAA;AAEA"}"#
        let script = LoadedScript(id: "7", url: "/app/main.ts", sourceMapURL: "data:application/json;base64," + Base64.encode(Array(map.utf8)))
        #expect(script.original(line: 3, column: 0) == ("/app/main.ts", 2, 0))
        #expect(script.generated(path: "/app/main.ts", line: 2)! == (3, 0))
        #expect(script.generated(path: "/app/main.ts", line: 1)! == (3, 0), "a line without code moves down")
    }

    @Test("internal scripts are hidden, and a patched module is shown as its file")
    func hiddenAndPatched() {
        #expect(LoadedScript.isInternal(url: ""))
        #expect(LoadedScript.isInternal(url: "hybrid:runtime/modules.js"))
        #expect(!LoadedScript.isInternal(url: "/app/main.ts"))
        #expect(LoadedScript.path(ofURL: "/app/cart.ts?patch=3") == "/app/cart.ts")
    }

    @Test("the inspector's URL is read into a WebSocket target; anything else is refused, naming url", arguments: [
        ("ws://127.0.0.1:9229/0123456789abcdef0123456789abcdef", "127.0.0.1", 9229, "/0123456789abcdef0123456789abcdef"),
        ("ws://[::1]:4000/s", "::1", 4000, "/s"),
    ])
    func inspectorURL(url: String, host: String, port: Int, resource: String) throws {
        let target = try InspectorClient.target(url)
        #expect(target.host == host && target.port == port && target.resource == resource && !target.secure)
    }

    @Test("a URL that is not ws://HOST:PORT/PATH is refused", arguments: ["http://127.0.0.1:1/x", "ws://127.0.0.1:0/x", "ws://:80/x", "ws://h:port/x"])
    func badInspectorURL(url: String) {
        #expect {
            try InspectorClient.target(url)
        } throws: { error in
            (error as? DebugAdapterError)?.message.hasPrefix("url: expected ws://") == true
        }
    }

    @Test("a launch runs hybrid run with the inspector first, then the data dir, grants and the app's arguments")
    func launchArguments() {
        #expect(LaunchedApp.runArguments(program: "app", arguments: ["a", "--b"], dataDirectory: "/d", grants: ["kv", "storage"])
            == ["run", "app", "--inspect-brk=0", "--data-dir", "/d", "--grant", "kv", "--grant", "storage", "--", "a", "--b"])
        #expect(LaunchedApp.runArguments(program: "m.ts", arguments: [], dataDirectory: nil, grants: []) == ["run", "m.ts", "--inspect-brk=0"])
    }

    @Test("a launch of test files runs hybrid test with the inspector first, grants, and each argument as an --arg")
    func testLaunchArguments() {
        #expect(LaunchedApp.testArguments(program: "tests", arguments: ["http://x", "y"], grants: ["kv"])
            == ["test", "tests", "--inspect-brk=0", "--grant", "kv", "--arg", "http://x", "--arg", "y"])
        #expect(["a.test.ts", "dir/b.test.js", "c.test.mjs", "d.test.cts"].allSatisfy(LaunchedApp.isTestFile))
        #expect(!["main.ts", "app", "test.ts", "a.spec.ts", "tests/"].contains(where: LaunchedApp.isTestFile))
    }
}
