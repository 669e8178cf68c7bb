import JSON
import Testing
@testable import Views

/// A list of `count` items `{id, title}` in a box, the list `rows` rows high.
func longList(_ count: Int, rows: Int = 5, width: Int = 24, buttons: Bool = false) throws -> ViewDocument {
    let template = buttons
        ? ##"{"type": "button", "id": "task-${id}", "text": "${title}", "on": {"press": "tasks.open"}}"##
        : ##"{"type": "text", "text": "${title}"}"##
    let view = ##"{"type": "stack", "children": [{"type": "text", "text": "Tasks"}, {"type": "list", "id": "tasks", "items": "${tasks}", "key": "id", "style": {"height": "## + String(rows) + ##"}, "template": "## + template + ##"}, {"type": "button", "id": "add", "text": "Add", "on": {"press": "tasks.add"}}]}"##
    return try ViewDocument(json: JSONParser.parse(view), data: taskItems(count), width: width)
}

func taskItems(_ count: Int, prefix: String = "task") -> JSONValue {
    .object(["tasks": .array((0..<count).map { i in .object(["id": .number(Double(i)), "title": .string("\(prefix) \(i)")]) })])
}

func list(_ document: ViewDocument) throws -> ViewNode { try #require(document.node(id: "tasks")) }

@Suite("scroll containers and long lists")
struct ScrollTests {
    @Test("a list of 1,000,000 items given a height expands only its visible rows and a margin")
    func millionItemsExpandLazily() throws {
        let document = try longList(1_000_000, rows: 10)
        let node = try list(document)
        let viewport = try #require(node.viewport)
        #expect(viewport.itemCount == 1_000_000)
        #expect(viewport.contentRows == 1_000_000)
        // 10 visible rows, 2 spare and 8 above and below at most: about 28 items, never 1,000,000.
        #expect(node.children.count <= 10 + 2 + 2 * ScrollViewport.margin)
        #expect(document.root.nodeCount < 40)
        #expect(document.canvas.plainText.contains("task 9"))
        #expect(!document.canvas.plainText.contains("task 10\n"))
    }

    @Test("a scroll step of a 1,000,000-item list re-expands only the new window")
    func millionItemsScroll() throws {
        let document = try longList(1_000_000, rows: 10)
        document.scroll(try list(document), to: 500_000)
        let node = try list(document)
        #expect(node.viewport?.offset == 500_000)
        #expect(node.children.count <= 10 + 2 + 2 * ScrollViewport.margin)
        #expect(document.canvas.plainText.contains("task 500000"))
        #expect(document.canvas.plainText.contains("task 500009"))
        #expect(!document.canvas.plainText.contains("task 500010"))
    }

    @Test("new data for a long list re-expands only the window on screen")
    func updateStaysWindowed() throws {
        let document = try longList(1_000_000, rows: 10)
        document.scroll(try list(document), to: 1000)
        let change = try document.update(data: taskItems(1_000_000, prefix: "job"))
        let node = try list(document)
        #expect(node.children.count <= 10 + 2 + 2 * ScrollViewport.margin)
        #expect(change.changedNodes <= 2 * (10 + 2 + 2 * ScrollViewport.margin) + 4)
        #expect(document.canvas.plainText.contains("job 1000"))
        // The items expanded off screen are not dirty: every area lies on the canvas.
        for rect in change.dirty { #expect(rect.y >= 0 && rect.maxY <= document.canvas.height, "\(rect)") }
        #expect(node.viewport?.offset == 1000)
    }

    @Test("top, middle and bottom of a scrolled list, scrollbar thumb sized to the visible share",
          arguments: [("scroll-list-top", 0), ("scroll-list-middle", 48), ("scroll-list-bottom", 1_000)])
    func scrollStates(_ name: String, _ offset: Int) throws {
        let document = try longList(100, rows: 5, width: 16)
        document.scroll(try list(document), to: offset)
        try Goldens.check(name, Goldens.text(of: document.canvas))
    }

    @Test("a short list given a height shows all its items and a thumb the length of the track")
    func shortList() throws {
        let document = try longList(3, rows: 5, width: 16)
        let viewport = try #require(try list(document).viewport)
        #expect(viewport.maxOffset == 0)
        #expect(viewport.thumb == (0, 5))
        try Goldens.check("scroll-list-short", Goldens.text(of: document.canvas))
    }

    @Test("the thumb's length is the visible share and its place the offset's")
    func thumbGeometry() throws {
        let document = try longList(20, rows: 10)
        let node = try list(document)
        let viewport = try #require(node.viewport)
        #expect(viewport.thumb == (0, 5))
        document.scroll(node, to: 5)
        #expect(viewport.thumb == (3, 5))
        document.scroll(node, to: 10)
        #expect(viewport.thumb == (5, 5))
        document.scroll(node, to: 99)
        #expect(viewport.offset == 10)
    }

    @Test("keys scroll the focused list: down, page down, end, up, page up, home")
    func keysScroll() throws {
        let document = try longList(10_000, rows: 5)
        let node = try list(document)
        document.moveFocus()   // the list takes focus first: it scrolls
        #expect(document.focusedNode() === node)
        let viewport = try #require(node.viewport)
        let steps: [(ViewKey, Int)] = [(.down, 1), (.down, 2), (.pageDown, 7), (.end, 9_995), (.up, 9_994), (.pageUp, 9_989), (.home, 0)]
        for (key, offset) in steps {
            #expect(document.scroll(key: key) != nil)
            #expect(viewport.offset == offset, "\(key)")
        }
        document.scroll(key: .end)
        #expect(document.canvas.plainText.contains("task 9999"))
    }

    @Test("scrolling keys do nothing when focus is in no scroll container")
    func keysOutsideContainer() throws {
        let document = try longList(100, rows: 5)
        document.moveFocus(backward: true)   // the Add button
        #expect(document.focusedNode()?.id == "add")
        #expect(document.scroll(key: .down) == nil)
    }

    @Test("moving focus to an item off screen scrolls it into view")
    func focusFollows() throws {
        let document = try longList(1_000, rows: 4, buttons: true)
        let node = try list(document)
        let viewport = try #require(node.viewport)
        document.moveFocus()   // the list
        for i in 0..<10 {
            document.moveFocus()
            document.revealFocus()
            let focused = try #require(document.focusedNode())
            #expect(focused.id == "task-\(i)")
            let inner = try list(document).contentRect
            #expect(focused.frame.y >= inner.y && focused.frame.maxY <= inner.maxY, "task-\(i) at \(focused.frame)")
        }
        #expect(viewport.offset == 6)
        #expect(document.canvas.plainText.contains("task 9"))
        // Down and up inside the list move focus item by item.
        _ = document.scroll(key: .down)
        #expect(document.focusedNode()?.id == "task-10")
        #expect(viewport.offset == 7)
        _ = document.scroll(key: .up)
        #expect(document.focusedNode()?.id == "task-9")
        // Page down from an item scrolls and gives the list focus.
        _ = document.scroll(key: .pageDown)
        #expect(document.focusedNode() === (try list(document)))
    }

    @Test("the wheel scrolls the container under the pointer, and nothing elsewhere")
    func wheel() throws {
        let document = try longList(1_000, rows: 5)
        let node = try list(document)
        let viewport = try #require(node.viewport)
        let inside = node.frame
        document.wheel(x: inside.x + 1, y: inside.y + 1, delta: 3)
        #expect(viewport.offset == 3)
        document.wheel(x: inside.x + 1, y: inside.y + 1, delta: -1)
        #expect(viewport.offset == 2)
        document.wheel(x: 0, y: 0, delta: 3)   // over the title
        #expect(viewport.offset == 2)
        #expect(document.canvas.plainText.contains("task 2"))
    }

    @Test("a scroll node scrolls children of different heights, and keeps its offset across updates")
    func scrollNode() throws {
        let view = ##"{"type": "scroll", "id": "log", "style": {"height": 3}, "children": [{"type": "text", "text": "one"}, {"type": "text", "text": "two\nthree"}, {"type": "text", "text": "${last}"}, {"type": "text", "text": "five"}]}"##
        let document = try ViewDocument(json: JSONParser.parse(view), data: ["last": "four"], width: 12)
        let node = try #require(document.node(id: "log"))
        #expect(node.viewport?.contentRows == 5)
        document.scroll(node, to: 2)
        #expect(document.canvas.plainText == "three      │\nfour       │\nfive       █\n")
        try document.update(data: ["last": "FOUR"])
        #expect(document.canvas.plainText == "three      │\nFOUR       │\nfive       █\n")
    }

    @Test("rows are as tall as the first item: a two-line template scrolls by two rows")
    func rowHeight() throws {
        let view = ##"{"type": "list", "id": "tasks", "items": "${tasks}", "style": {"height": 4}, "template": {"type": "stack", "children": [{"type": "text", "text": "${title}"}, {"type": "divider"}]}}"##
        let document = try ViewDocument(json: JSONParser.parse(view), data: taskItems(50), width: 10)
        let node = try list(document)
        #expect(node.viewport?.rowHeight == 2)
        #expect(node.viewport?.contentRows == 100)
        document.moveFocus()
        _ = document.scroll(key: .down)
        #expect(node.viewport?.offset == 2)
        #expect(document.canvas.plainText.hasPrefix("task 1"))
    }

    @Test("arrow, page, home and end escape sequences are read as keys")
    func parseKeys() {
        let bytes: [UInt8] = Array("\u{1B}[A\u{1B}[B\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}[4~\u{1B}[Z\t".utf8)
        #expect(ViewKey.parse(bytes) == [.up, .down, .pageUp, .pageDown, .home, .end, .home, .end, .shiftTab, .tab])
    }
}
