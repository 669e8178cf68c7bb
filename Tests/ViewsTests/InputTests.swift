import JSON
import Testing
@testable import Views

/// A form: a title input (with the given extra properties), a button, and a note input.
func form(_ input: String = "", value: String = "", width: Int = 20) throws -> ViewDocument {
    let view = ##"{"type": "stack", "children": [{"type": "input", "id": "title", "value": "${draft}", "placeholder": "task title", "style": {"width": 12}"## + input
        + ##", "on": {"change": "form.change", "submit": "form.submit"}}, {"type": "button", "id": "add", "text": "Add", "on": {"press": "form.add"}}]}"##
    let document = try ViewDocument(json: JSONParser.parse(view), data: ["draft": .string(value)], width: width)
    _ = document.repaint(document.moveFocus())
    return document
}

func title(_ document: ViewDocument) throws -> ViewNode { try #require(document.node(id: "title")) }

@discardableResult
func type(_ document: ViewDocument, _ edits: InputEditor.Edit...) -> Bool {
    var changed = false
    for edit in edits { changed = document.edit(edit)?.changed ?? false || changed }
    return changed
}

@Suite("text input")
struct InputTests {
    @Test("typing inserts at the cursor; left, right, home, end, backspace and delete edit there")
    func editing() throws {
        let document = try form()
        #expect(type(document, .insert("buy milk")))
        #expect(try title(document).value == "buy milk")
        type(document, .home, .right, .right, .right, .insert(" fresh"))
        #expect(try title(document).value == "buy fresh milk")
        type(document, .end, .backspace, .backspace, .left, .delete)
        #expect(try title(document).value == "buy fresh m")
        #expect(!type(document, .delete))   // at the end: nothing to delete, no change
        type(document, .home)
        #expect(!type(document, .backspace))
        #expect(try title(document).editor?.cursor == 0)
    }

    @Test("word jumps stop at the start and the end of words")
    func words() throws {
        let document = try form(value: "call mum  today")
        let editor = try #require(try title(document).editor)
        type(document, .wordLeft)
        #expect(editor.cursor == 10)
        type(document, .wordLeft)
        #expect(editor.cursor == 5)
        type(document, .wordLeft, .wordLeft)
        #expect(editor.cursor == 0)
        type(document, .wordRight)
        #expect(editor.cursor == 4)
        type(document, .wordRight)
        #expect(editor.cursor == 8)
        type(document, .wordRight, .wordRight)
        #expect(editor.cursor == 15)
    }

    @Test("wide characters, emoji and combining marks are stepped over and deleted whole")
    func graphemes() throws {
        let document = try form()
        type(document, .insert("你好👍🏽e\u{301}"))
        let editor = try #require(try title(document).editor)
        #expect(editor.cursor == 4)
        type(document, .backspace)
        #expect(editor.value == "你好👍🏽")
        type(document, .left, .backspace)
        #expect(editor.value == "你👍🏽")
        // A combining mark typed after a letter joins its cluster: one step back removes both.
        type(document, .end, .insert("a"), .insert("\u{308}"))
        #expect(editor.value == "你👍🏽a\u{308}")
        #expect(editor.cursor == 3)
        type(document, .backspace)
        #expect(editor.value == "你👍🏽")
    }

    @Test("maxLength counts grapheme clusters and cuts typing and pastes")
    func maxLength() throws {
        let document = try form(##", "maxLength": 5"##)
        type(document, .insert("你好"))
        #expect(type(document, .insert("abcdef")))
        #expect(try title(document).value == "你好abc")
        #expect(!type(document, .insert("x")))
        // Data longer than the limit is cut too.
        try document.update(data: ["draft": "0123456789"])
        #expect(try title(document).value == "01234")
    }

    @Test("a paste is one edit; its newlines become spaces and control characters are dropped")
    func paste() throws {
        let document = try form()
        type(document, .insert("one\ntwo\r\nthree\u{7}\tfour"))
        #expect(try title(document).value == "one two three four")
    }

    @Test("typing stays across updates until the data gives the input a different value")
    func keptAcrossUpdates() throws {
        let document = try form(value: "")
        type(document, .insert("draft"))
        try document.update(data: ["draft": ""])          // the same value as before: kept
        #expect(try title(document).value == "draft")
        try document.update(data: ["draft": "draft"])     // JS echoing the value: kept, cursor too
        #expect(try title(document).editor?.cursor == 5)
        try document.update(data: ["draft": ""])          // JS clears it after a submit
        #expect(try title(document).value == "")
        #expect(document.canvas.plainText.hasPrefix("task title__"))
        // After a submit, the next update's value replaces what was typed even when it is the same.
        type(document, .insert("next"))
        try document.update(data: ["draft": ""])
        #expect(try title(document).value == "next")
        try title(document).editor?.submitted()
        try document.update(data: ["draft": ""])
        #expect(try title(document).value == "")
    }

    @Test("the field scrolls sideways to keep the cursor in view, and the cursor cell is where the terminal cursor goes")
    func scrollsSideways() throws {
        let document = try form()
        type(document, .insert("abcdefghijklmnop"))
        // 12 cells: 11 characters and the cursor's cell.
        #expect(document.canvas.plainText.hasPrefix("fghijklmnop_"))
        #expect(document.cursorCell()! == (11, 0))
        type(document, .home)
        #expect(document.canvas.plainText.hasPrefix("abcdefghijkl"))
        #expect(document.cursorCell()! == (0, 0))
        type(document, .end, .backspace, .backspace, .backspace, .backspace, .backspace, .backspace)
        #expect(document.canvas.plainText.hasPrefix("abcdefghij__"))
        document.moveFocus()
        #expect(document.cursorCell() == nil)
    }

    @Test("a wide character is never cut at the field's edge")
    func wideAtEdge() throws {
        let document = try form()
        type(document, .insert("ab你好你好你好"))
        // 14 cells of text in 12: scrolled so that whole characters and the cursor fit.
        let row = String(document.canvas.plainText.split(separator: "\n")[0])
        #expect(row.hasPrefix("你好你好你_") || row.hasPrefix("好你好你好_"))
        #expect(Glyph.width(of: String(row.prefix(6))) == 11)
    }

    @Test("goldens: each input state")
    func goldens() throws {
        var document = try form()
        try Goldens.check("input-focused-placeholder", Goldens.text(of: document.canvas))
        type(document, .insert("buy milk"))
        try Goldens.check("input-typed", Goldens.text(of: document.canvas))
        type(document, .wordLeft, .left)
        try Goldens.check("input-cursor-mid-text", Goldens.text(of: document.canvas))
        document = try form()
        type(document, .insert("给妈妈打电话"), .left, .left)
        try Goldens.check("input-cjk", Goldens.text(of: document.canvas))
        document = try form(##", "secret": true"##)
        type(document, .insert("hunter2"))
        try Goldens.check("input-secret", Goldens.text(of: document.canvas))
        document = try form(##", "maxLength": 4"##)
        type(document, .insert("12345"))
        try Goldens.check("input-at-max-length", Goldens.text(of: document.canvas))
        document = try form()
        type(document, .insert("a long title that scrolls"))
        try Goldens.check("input-scrolled", Goldens.text(of: document.canvas))
        _ = document.repaint(document.moveFocus())
        try Goldens.check("input-unfocused", Goldens.text(of: document.canvas))
    }

    @Test("a click focuses the node under the pointer and puts an input's cursor at the character clicked")
    func click() throws {
        let document = try form(value: "buy milk")
        document.moveFocus()   // the button
        let (node, _) = try #require(document.click(x: 2, y: 0))
        #expect(node.id == "title")
        #expect(node.editor?.cursor == 2)
        #expect(document.click(x: 19, y: 0) == nil)   // beside the field: nothing there
        let (button, _) = try #require(document.click(x: 1, y: 1))
        #expect(button.id == "add")
        #expect(document.focusedNode()?.id == "add")
    }

    @Test("bytes from the terminal: keys, text, UTF-8 and pastes cut between reads, word jumps, SGR mouse reports")
    func parse() {
        var parser = TerminalInputParser()
        #expect(parser.feed(Array("ab\u{1B}[D\u{1B}[C\u{1B}[1;5D\u{1B}[1;3C\u{1B}b\u{1B}f\u{1B}[3~\u{7F}".utf8))
            == [.text("ab"), .key(.left), .key(.right), .key(.wordLeft), .key(.wordRight), .key(.wordLeft), .key(.wordRight), .key(.delete), .key(.backspace)])
        let chinese = Array("你好".utf8)
        #expect(parser.feed(Array(chinese[0..<4])) == [.text("你")])
        #expect(parser.feed(Array(chinese[4...]) + [0x0D]) == [.text("好"), .key(.enter)])
        #expect(parser.feed(Array("x\u{1B}[200~line one\n".utf8)) == [.text("x")])
        #expect(parser.feed(Array("q\t\u{1B}[201~q".utf8)) == [.paste("line one\nq\t"), .text("q")])
        #expect(parser.feed(Array("\u{1B}[".utf8)) == [])
        #expect(parser.feed(Array("<0;3;2M\u{1B}[<0;3;2m\u{1B}[<65;10;5M\u{1B}[<64;1;1M".utf8)) == [
            .mouse(MouseReport(action: .press, x: 2, y: 1)), .mouse(MouseReport(action: .release, x: 2, y: 1)),
            .mouse(MouseReport(action: .wheelDown, x: 9, y: 4)), .mouse(MouseReport(action: .wheelUp, x: 0, y: 0)),
        ])
        // Outside an input, a space presses and q quits, as before.
        #expect(ViewKey.parse(Array(" q".utf8)) == [.space, .quit])
    }

    @Test("the session sends change on each edit and submit on Enter, with the id and value")
    func sessionEvents() throws {
        let session = ViewSession()
        let spec = try ViewDecoder.decode(JSONParser.parse(##"{"type": "stack", "children": [{"type": "input", "id": "title", "on": {"change": "form.change", "submit": "form.submit"}}, {"type": "button", "id": "add", "text": "Add", "on": {"press": "form.add"}}]}"##))
        _ = try session.mount(spec: spec, data: [:], width: 20, height: nil, output: "none", nodeLimit: .max)
        #expect(session.type("你好") == ["type": "change", "handler": "form.change", "id": "title", "value": "你好"])
        #expect(session.key(.left) == nil)   // the cursor alone moved
        #expect(session.key(.space) == ["type": "change", "handler": "form.change", "id": "title", "value": "你 好"])
        #expect(session.type("q") == ["type": "change", "handler": "form.change", "id": "title", "value": "你 q好"])   // q is a letter here
        #expect(session.key(.enter) == ["type": "submit", "handler": "form.submit", "id": "title", "value": "你 q好"])
        #expect(session.events.pendingCount == 4)
        let cursor = try #require(session.frame()?.cursor)
        #expect(cursor == (4, 0))
        session.key(.tab)
        #expect(session.frame()?.cursor == nil)
        #expect(session.type(" ") == ["type": "press", "handler": "form.add", "id": "add"])   // a space presses the button
        #expect(session.type("q ", pasted: true) == nil)   // a paste outside an input is dropped: no quit, no press
        #expect(throws: ViewSession.SimulateFailure.self) { try session.simulateTyping("x", id: "add") }
        #expect(try session.simulateTyping("!", id: "title") == ["type": "change", "handler": "form.change", "id": "title", "value": "你 q!好"])
        #expect(try session.click(x: 0, y: 1) == ["type": "press", "handler": "form.add", "id": "add"])
        session.unmount()
    }

    @Test("the view decoder checks maxLength and secret")
    func decoding() {
        for (json, path, message) in [
            (##"{"type": "input", "maxLength": 0}"##, "/maxLength", "expected a whole number of characters from 1 to 100000, got 0"),
            (##"{"type": "input", "secret": "yes"}"##, "/secret", "expected true or false, got string"),
            (##"{"type": "text", "text": "x", "secret": true}"##, "/secret", "only input nodes take secret"),
        ] {
            #expect(throws: ViewDecodingError(path, message)) { try ViewDecoder.decode(JSONParser.parse(json)) }
        }
    }
}
