import JSON
import Testing
@testable import Views

@Suite("screen-reader stream")
struct AccessibilityTests {
    static let view = ##"{"type": "stack", "children": [{"type": "input", "id": "title", "value": "${draft}"}, {"type": "button", "id": "add", "text": "Add", "on": {"press": "tasks.add"}}, {"type": "list", "id": "tasks", "items": "${tasks}", "key": "id", "style": {"height": 2}, "template": {"type": "stack", "direction": "row", "children": [{"type": "text", "text": "${title}"}, {"type": "button", "id": "done-${id}", "text": "${state}", "on": {"press": "tasks.toggle"}}]}}]}"##

    static func data(draft: String, states: [String] = ["open", "done", "open"]) -> JSONValue {
        let titles = ["buy milk", "call mum", "water plants"]
        return .object(["draft": .string(draft), "tasks": .array(titles.indices.map { i in
            .object(["id": .number(Double(i + 1)), "title": .string(titles[i]), "state": .string(states[i])])
        })])
    }

    @Test("focus moves, value changes of the focused node and content changes within focus are spoken, one line each")
    func sequence() throws {
        let session = ViewSession()
        _ = try session.mount(spec: ViewDecoder.decode(JSONParser.parse(Self.view)), data: Self.data(draft: ""), width: 30, height: nil,
                              output: "none", nodeLimit: .max, accessible: true)
        _ = try session.update(data: Self.data(draft: "buy bread"), patch: nil)      // the focused input's value
        session.key(.tab)                                                            // button Add
        session.key(.tab)                                                            // the list
        _ = try session.update(data: Self.data(draft: "buy bread"), patch: nil)      // nothing changed: silent
        session.key(.tab)                                                            // the first item's button
        session.key(.down)                                                           // the second item's
        _ = try session.update(data: Self.data(draft: "", states: ["open", "open", "open"]), patch: nil)   // within focus
        session.key(.down)                                                           // the third, scrolled in
        session.key(.shiftTab)
        session.unmount()
        let lines = try #require(session.spoken())
        for line in lines { #expect(!line.contains("\u{1B}") && !line.contains("\n")) }
        try Goldens.check("a11y-focus-and-updates", lines.joined(separator: "\n") + "\n")
    }

    @Test("no stream unless the mount asks for one")
    func offByDefault() throws {
        let session = ViewSession()
        _ = try session.mount(spec: ViewDecoder.decode(JSONParser.parse(Self.view)), data: Self.data(draft: ""), width: 30, height: nil,
                              output: "none", nodeLimit: .max)
        #expect(session.spoken() == nil)
    }

    @Test("a scrolled list says which of its items show")
    func scrolledList() throws {
        let session = ViewSession()
        _ = try session.mount(spec: ViewDecoder.decode(JSONParser.parse(##"{"type": "list", "id": "tasks", "items": "${tasks}", "style": {"height": 10}, "template": {"type": "text", "text": "${title}"}}"##)),
                              data: taskItems(1_000_000), width: 30, height: nil, output: "none", nodeLimit: .max, accessible: true)
        session.key(.pageDown)
        _ = try session.wheel(id: "tasks", x: 0, y: 0, delta: 5)
        session.key(.end)
        #expect(session.spoken() == [
            "view opened, 1 control",
            "list tasks, 1000000 items, showing 1 to 10",
            "list tasks, 1000000 items, showing 11 to 20",
            "list tasks, 1000000 items, showing 16 to 25",
            "list tasks, 1000000 items, showing 999991 to 1000000",
        ])
    }
}
