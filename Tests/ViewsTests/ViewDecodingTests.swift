import JSON
import Testing
@testable import Views

@Suite("view JSON decoding")
struct ViewDecodingTests {
    @Test("bad view JSON is refused with an error that points at the offending field", arguments: [
        (##"[]"##, "", "expected a node object, got array"),
        (##"{"text": "x"}"##, "/type", "missing; expected one of stack, box, text, button, list, divider, spacer, input, scroll"),
        (##"{"type": 3}"##, "/type", "expected a string, got number"),
        (##"{"type": "chart"}"##, "/type", "unknown node type \"chart\"; expected one of stack, box, text, button, list, divider, spacer, input, scroll, or give the node a fallback"),
        (##"{"type": "stack", "children": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}, {"type": "box", "style": {"border": "dotted"}}]}"##,
         "/children/2/style/border", "expected one of none, single, double, rounded, heavy, got \"dotted\""),
        (##"{"type": "text"}"##, "/text", "missing; a text node needs its text"),
        (##"{"type": "text", "text": "x", "style": {"colour": "red"}}"##, "/style/colour", "unknown style property; expected one of direction, gap, align, alignSelf, justify, grow, shrink, basis, width, height, minWidth, maxWidth, minHeight, maxHeight, padding, margin, border, borderColor, background, color, bold, italic, underline, dim, inverse, overflow"),
        (##"{"type": "text", "text": "x", "style": {"color": "chartreuse"}}"##, "/style/color", "expected a color name (black, red, green, yellow, blue, magenta, cyan, white, gray, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite), a 256-color index 0–255 or \"#rrggbb\", got \"chartreuse\""),
        (##"{"type": "text", "text": "x", "style": {"color": 300}}"##, "/style/color", nil),
        (##"{"type": "text", "text": "x", "style": {"color": "#12345"}}"##, "/style/color", nil),
        (##"{"type": "box", "style": {"width": "150%"}}"##, "/style/width", "expected a number of cells, a percentage such as \"50%\", or \"auto\", got \"150%\""),
        (##"{"type": "box", "style": {"width": -1}}"##, "/style/width", nil),
        (##"{"type": "box", "style": {"width": 2.5}}"##, "/style/width", nil),
        (##"{"type": "box", "style": {"padding": [1, 2, 3]}}"##, "/style/padding", "expected a number, [vertical, horizontal] or [top, right, bottom, left], got array"),
        (##"{"type": "box", "style": {"padding": [1, "x"]}}"##, "/style/padding/1", nil),
        (##"{"type": "box", "style": {"bold": "yes"}}"##, "/style/bold", "expected true or false, got string"),
        (##"{"type": "box", "style": {"grow": -1}}"##, "/style/grow", nil),
        (##"{"type": "stack", "direction": "diagonal"}"##, "/direction", "expected one of row, column, got \"diagonal\""),
        (##"{"type": "stack", "justify": "around"}"##, "/justify", nil),
        (##"{"type": "stack", "style": {"align": "middle"}}"##, "/style/align", nil),
        (##"{"type": "stack", "children": {"type": "text"}}"##, "/children", "expected an array of nodes, got object"),
        (##"{"type": "text", "text": "x", "children": []}"##, "/children", "a text node has no children"),
        (##"{"type": "list", "template": {"type": "text", "text": "x"}}"##, "/items", "missing; a list needs items, such as \"${tasks}\""),
        (##"{"type": "list", "items": "tasks", "template": {"type": "text", "text": "x"}}"##, "/items", "expected one template such as \"${tasks}\""),
        (##"{"type": "list", "items": "${tasks}"}"##, "/template", "missing; a list needs a template node"),
        (##"{"type": "list", "items": "${tasks}", "template": {"type": "text"}}"##, "/template/text", nil),
        (##"{"type": "list", "items": "${t}", "template": {"type": "text", "text": "x"}, "children": []}"##, "/children", nil),
        (##"{"type": "text", "text": "x", "items": "${t}"}"##, "/items", "only list nodes take items"),
        (##"{"type": "text", "text": "${unclosed"}"##, "/text", "unclosed \"${\" in \"${unclosed\""),
        (##"{"type": "button", "text": "x", "on": {"click": "a.b"}}"##, "/on/click", "unknown event; expected one of press, change, submit"),
        (##"{"type": "button", "text": "x", "on": {"press": "a b"}}"##, "/on/press", nil),
        (##"{"type": "button", "text": "x", "on": {"press": 1}}"##, "/on/press", "expected a string, got number"),
        (##"{"type": "text", "text": "x", "onClick": "a"}"##, "/onClick", "unknown property of a text node"),
        (##"{"type": "divider", "placeholder": "x"}"##, "/placeholder", "only input nodes take a placeholder"),
        (##"{"type": "text", "text": "x", "gap": 1}"##, "/gap", nil),
        (##"{"type": "stack", "children": [{"type": "stack", "children": [{"type": "nope", "fallback": {"type": "nope2"}}]}]}"##, "/children/0/children/0/fallback/type", nil),
        (##"{"type": "text", "text": "x", "style": []}"##, "/style", "expected a style object, got array"),
        (##"{"type": "text", "text": "x", "style": {"overflow": "scroll"}}"##, "/style/overflow", "expected one of wrap, truncate, got \"scroll\""),
    ] as [(String, String, String?)])
    func badViews(_ json: String, _ path: String, _ message: String?) throws {
        let value = try JSONParser.parse(json)
        let error = try #require(throws: ViewDecodingError.self) { try ViewDecoder.decode(value) }
        #expect(error.path == path)
        if let message { #expect(error.message == message) }
        #expect(error.description.hasPrefix(path.isEmpty ? "/: " : path + ": "))
    }

    @Test("the issue's example error reads as the issue writes it")
    func exampleMessage() throws {
        let json = try JSONParser.parse(##"{"type": "stack", "children": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}, {"type": "box", "style": {"border": 1}}]}"##)
        let error = try #require(throws: ViewDecodingError.self) { try ViewDecoder.decode(json) }
        #expect(error.description == "/children/2/style/border: expected one of none, single, double, rounded, heavy, got number")
    }

    @Test("data that does not fit the view is refused with a path into the view", arguments: [
        (##"{"type": "list", "items": "${tasks}", "template": {"type": "text", "text": "x"}}"##, ##"{"tasks": "milk"}"##, "/items"),
        (##"{"type": "list", "items": "${tasks}", "key": "id", "template": {"type": "text", "text": "x"}}"##, ##"{"tasks": [{"id": 1}, {"id": 1}]}"##, "/key"),
        (##"{"type": "list", "items": "${tasks}", "key": "id", "template": {"type": "text", "text": "x"}}"##, ##"{"tasks": [{"title": "no id"}]}"##, "/key"),
        (##"{"type": "box", "children": [{"type": "list", "items": "${a.b}", "template": {"type": "text", "text": "x"}}]}"##, ##"{"a": {"b": 3}}"##, "/children/0/items"),
    ])
    func badData(_ view: String, _ data: String, _ path: String) throws {
        let error = try #require(throws: ViewDecodingError.self) { try render(view, data: data, width: 20) }
        #expect(error.path == path)
    }

    @Test("a missing list is an empty list")
    func missingList() throws {
        let document = try render(##"{"type": "list", "items": "${tasks}", "template": {"type": "text", "text": "x"}}"##, width: 10)
        #expect(document.root.children.isEmpty)
    }
}
