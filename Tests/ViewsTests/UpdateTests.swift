import JSON
import Testing
@testable import Views

/// A terminal that understands what FrameWriter writes: cursor moves, SGR (ignored) and text.
struct VirtualScreen {
    var rows: [[String]]

    init(_ canvas: TextCanvas) {
        rows = (0..<canvas.height).map { y in (0..<canvas.width).map { x in canvas[x, y].text } }
    }

    mutating func apply(_ output: String) {
        var x = 0, y = 0
        var scalars = Array(output.unicodeScalars)[...]
        var pending = String.UnicodeScalarView()
        func flush() {
            guard !pending.isEmpty else { return }
            for glyph in Glyph.segment(String(pending)) {
                rows[y][x] = glyph.text
                if glyph.width == 2 { rows[y][x + 1] = "" }
                x += glyph.width
            }
            pending = String.UnicodeScalarView()
        }
        while let c = scalars.first {
            scalars = scalars.dropFirst()
            guard c == "\u{1B}" else { pending.append(c); continue }
            flush()
            guard scalars.first == "[" else { continue }
            scalars = scalars.dropFirst()
            var params = ""
            while let p = scalars.first, !("A"..."Z").contains(p) && !("a"..."z").contains(p) { params.unicodeScalars.append(p); scalars = scalars.dropFirst() }
            let final = scalars.first!
            scalars = scalars.dropFirst()
            if final == "H" {
                let parts = params.split(separator: ";").compactMap { Int($0) }
                y = (parts.first ?? 1) - 1
                x = (parts.count > 1 ? parts[1] : 1) - 1
            }
        }
        flush()
    }

    var text: String {
        rows.map { row in
            var s = row.joined()
            while s.last == " " { s.removeLast() }
            return s
        }.joined(separator: "\n") + "\n"
    }
}

let taskView = ##"""
{"type": "box", "style": {"border": "single", "width": 30}, "children": [
  {"type": "text", "text": "${title}", "style": {"bold": true}},
  {"type": "list", "items": "${tasks}", "key": "id", "template": {"type": "stack", "direction": "row", "gap": 1, "children": [
    {"type": "button", "id": "done-${id}", "text": "${mark}", "on": {"press": "tasks.toggle"}},
    {"type": "text", "text": "${title}", "style": {"color": "green"}}]}},
  {"type": "text", "text": "${footer}", "style": {"dim": true}}]}
"""##

func taskData(_ titles: [(Int, String)], title: String = "Tasks", footer: String = "end") -> JSONValue {
    ["title": .string(title), "footer": .string(footer),
     "tasks": .array(titles.map { ["id": .number(Double($0.0)), "title": .string($0.1), "mark": " "] })]
}

@Suite("incremental updates")
struct UpdateTests {
    @Test("an update writes only changed cells, and the terminal then shows the new frame", arguments: [
        taskData([(1, "milk"), (2, "eggs")], title: "Tasks!"),
        taskData([(1, "milk"), (2, "bread and butter")]),
        taskData([(2, "eggs"), (1, "milk")]),
        taskData([(1, "milk")]),
        taskData([(1, "milk"), (2, "eggs"), (3, "中文 tea 😀")]),
        taskData([], footer: "nothing left to do today, at all"),
    ])
    func updateOutput(_ next: JSONValue) throws {
        let document = try ViewDocument(json: JSONParser.parse(taskView), data: taskData([(1, "milk"), (2, "eggs")]), width: 30)
        var screen = VirtualScreen(document.canvas)
        let change = try document.update(data: next)
        let output = change.resized ? FrameWriter.full(document.canvas, mode: .ansi16)
            : FrameWriter.changes(from: change.previous ?? document.canvas, to: document.canvas, in: change.dirty, mode: .ansi16)
        if change.resized { screen = VirtualScreen(TextCanvas(width: 30, height: document.canvas.height)) }
        screen.apply(output)
        #expect(screen.text == document.canvas.plainText)
        let fresh = try ViewDocument(json: JSONParser.parse(taskView), data: next, width: 30)
        #expect(document.canvas == fresh.canvas)
        if !output.isEmpty {
            #expect(output.hasPrefix("\u{1B}[?2026h") && output.hasSuffix("\u{1B}[?2026l"), "synchronized output markers")
        }
    }

    @Test("changing one word writes a few dozen bytes, not the frame")
    func bytesProportional() throws {
        let document = try ViewDocument(json: JSONParser.parse(taskView), data: taskData([(1, "milk"), (2, "eggs")]), width: 30)
        let full = FrameWriter.full(document.canvas, mode: .ansi16).utf8.count
        let change = try document.update(patch: [["op": "replace", "path": "/tasks/1/title", "value": "eggz"]])
        let output = FrameWriter.changes(from: change.previous!, to: document.canvas, in: change.dirty, mode: .ansi16)
        #expect(change.changedNodes == 1)
        #expect(change.dirty == [Rect(x: 7, y: 3, width: 4, height: 1)])
        #expect(output == "\u{1B}[?2026h\u{1B}[4;11H\u{1B}[0;32mz\u{1B}[0m\u{1B}[?2026l")
        #expect(output.utf8.count * 10 < full)
    }

    @Test("unchanged list items keep their nodes across an update, matched by key")
    func keyedIdentity() throws {
        let document = try ViewDocument(json: JSONParser.parse(taskView), data: taskData([(1, "milk"), (2, "eggs"), (3, "tea")]), width: 30)
        let list = document.root.children[1]
        let before = Dictionary(uniqueKeysWithValues: list.children.map { ($0.key, ObjectIdentifier($0)) })
        try document.update(data: taskData([(3, "tea"), (1, "milk"), (4, "new")]))
        let after = document.root.children[1].children
        #expect(after.map(\.key) == ["k:3", "k:1", "k:4"])
        #expect(ObjectIdentifier(after[0]) == before["k:3"])
        #expect(ObjectIdentifier(after[1]) == before["k:1"])
        #expect(before["k:4"] == nil)
    }

    @Test("an update with equal data changes nothing and writes nothing")
    func noChange() throws {
        let data = taskData([(1, "milk")])
        let document = try ViewDocument(json: JSONParser.parse(taskView), data: data, width: 30)
        let root = ObjectIdentifier(document.root)
        let change = try document.update(data: data)
        #expect(change.changedNodes == 0 && change.dirty.isEmpty)
        #expect(ObjectIdentifier(document.root) == root)
    }

    @Test("Tab and Shift-Tab move focus through buttons in document order, wrapping")
    func focus() throws {
        let document = try ViewDocument(json: JSONParser.parse(taskView), data: taskData([(1, "a"), (2, "b")]), width: 30)
        var seen: [String?] = []
        for _ in 0..<3 { document.moveFocus(); seen.append(document.focusedNode()?.id) }
        document.moveFocus(backward: true)
        seen.append(document.focusedNode()?.id)
        #expect(seen == ["done-1", "done-2", "done-1", "done-2"])
        _ = document.repaint([document.focusedNode()!.frame])
        #expect(document.canvas.styleRuns.contains("3:1-5 inverse"))
    }
}

@Suite("JSON Patch (RFC 6902)")
struct JSONPatchTests {
    @Test("operations apply as the RFC says", arguments: [
        (##"[{"op": "add", "path": "/b", "value": 2}]"##, ##"{"a": 1, "list": [1, 2], "b": 2}"##),
        (##"[{"op": "add", "path": "/list/1", "value": "x"}]"##, ##"{"a": 1, "list": [1, "x", 2]}"##),
        (##"[{"op": "add", "path": "/list/-", "value": 3}]"##, ##"{"a": 1, "list": [1, 2, 3]}"##),
        (##"[{"op": "remove", "path": "/a"}]"##, ##"{"list": [1, 2]}"##),
        (##"[{"op": "remove", "path": "/list/0"}]"##, ##"{"a": 1, "list": [2]}"##),
        (##"[{"op": "replace", "path": "/a", "value": {"deep": true}}]"##, ##"{"a": {"deep": true}, "list": [1, 2]}"##),
        (##"[{"op": "move", "from": "/a", "path": "/b"}]"##, ##"{"b": 1, "list": [1, 2]}"##),
        (##"[{"op": "copy", "from": "/list", "path": "/c"}]"##, ##"{"a": 1, "list": [1, 2], "c": [1, 2]}"##),
        (##"[{"op": "test", "path": "/a", "value": 1}, {"op": "replace", "path": "", "value": 5}]"##, "5"),
    ])
    func apply(_ patch: String, _ expected: String) throws {
        let base = try JSONParser.parse(##"{"a": 1, "list": [1, 2]}"##)
        #expect(try JSONPatch.apply(JSONParser.parse(patch), to: base) == JSONParser.parse(expected))
    }

    @Test("a failing operation is refused with a path into the patch", arguments: [
        (##"{"op": "add"}"##, ""),
        (##"[{"op": "frob", "path": "/a"}]"##, "/0/op"),
        (##"[{"op": "add", "path": "a", "value": 1}]"##, "/0/path"),
        (##"[{"op": "replace", "path": "/zz", "value": 1}]"##, "/0/path"),
        (##"[{"op": "add", "path": "/list/9", "value": 1}]"##, "/0/path"),
        (##"[{"op": "add", "path": "/a", "value": 1}, {"op": "remove", "path": "/nope/x"}]"##, "/1/path"),
        (##"[{"op": "test", "path": "/a", "value": 2}]"##, "/0"),
        (##"[{"op": "add", "path": "/b"}]"##, "/0/value"),
        (##"[{"op": "move", "from": "/missing", "path": "/b"}]"##, "/0/from"),
    ])
    func refuse(_ patch: String, _ path: String) throws {
        let base = try JSONParser.parse(##"{"a": 1, "list": [1, 2]}"##)
        let patchValue = try JSONParser.parse(patch)
        let error = try #require(throws: JSONPatchError.self) { try JSONPatch.apply(patchValue, to: base) }
        #expect(error.path == path)
    }
}
