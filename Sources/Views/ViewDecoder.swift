import JSON

/// Reads a view JSON into ``ViewSpec``s, refusing anything it does not know with an error that
/// points into the JSON: `/children/2/style/border: expected one of none, single, double, rounded, heavy`.
///
/// Unknown node types are refused unless the node carries a `fallback` node, which then takes its
/// place (so an old host can show a newer view). Unknown properties are refused too: a typo in a
/// style must not pass silently.
public enum ViewDecoder {
    static let nodeKeys: Set<String> = ["type", "id", "style", "text", "placeholder", "value", "children", "on",
                                        "items", "template", "key", "fallback", "direction", "gap", "align", "justify"]
    static let styleKeys = ["direction", "gap", "align", "alignSelf", "justify", "grow", "shrink", "basis",
                            "width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight", "padding", "margin",
                            "border", "borderColor", "background", "color", "bold", "italic", "underline", "dim",
                            "inverse", "overflow"]
    static let maximumDepth = 200

    public static func decode(_ json: JSONValue) throws(ViewDecodingError) -> ViewSpec {
        try node(json, at: "", depth: 0)
    }

    public static func decode(text: String) throws(ViewDecodingError) -> ViewSpec {
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw ViewDecodingError("", "not JSON: \(error)")
        }
        return try decode(json)
    }

    static func node(_ json: JSONValue, at path: String, depth: Int) throws(ViewDecodingError) -> ViewSpec {
        guard depth < maximumDepth else { throw ViewDecodingError(path, "nested deeper than \(maximumDepth) nodes") }
        guard case .object(let object) = json else {
            throw ViewDecodingError(path, "expected a node object, got \(json.typeName)")
        }
        guard let typeValue = object["type"] else {
            throw ViewDecodingError(path + "/type", "missing; expected one of \(ViewKind.names)")
        }
        guard case .string(let typeName) = typeValue else {
            throw ViewDecodingError(path + "/type", "expected a string, got \(typeValue.typeName)")
        }
        guard let kind = ViewKind(rawValue: typeName) else {
            if let fallback = object["fallback"] {
                return try node(fallback, at: path + "/fallback", depth: depth + 1)
            }
            throw ViewDecodingError(path + "/type", "unknown node type \"\(typeName)\"; expected one of \(ViewKind.names), or give the node a fallback")
        }
        var spec = ViewSpec(kind: kind, pointer: path)
        for (key, _) in object where !nodeKeys.contains(key) {
            throw ViewDecodingError(JSONPointer.appending(path, key: key), "unknown property of a \(typeName) node")
        }
        if let id = object["id"] { spec.id = try template(id, at: path + "/id") }
        if let style = object["style"] { spec.style = try self.style(style, at: path + "/style") }
        // A stack's own layout properties may sit on the node itself, as the README writes them.
        for key in ["direction", "gap", "align", "justify"] {
            guard let value = object[key] else { continue }
            guard kind == .stack || kind == .list || kind == .box || kind == .scroll else {
                throw ViewDecodingError(path + "/" + key, "only stack, list, box and scroll nodes take \(key) outside their style")
            }
            try apply(key, value, to: &spec.style, at: path + "/" + key)
        }
        let textKey = object["text"] != nil ? "text" : "value"
        if let text = object[textKey] {
            guard kind == .text || kind == .button || kind == .input else {
                throw ViewDecodingError(path + "/" + textKey, "a \(typeName) node has no text")
            }
            spec.text = try template(text, at: path + "/" + textKey)
        } else if kind == .text || kind == .button {
            throw ViewDecodingError(path + "/text", "missing; a \(typeName) node needs its text")
        }
        if let placeholder = object["placeholder"] {
            guard kind == .input else { throw ViewDecodingError(path + "/placeholder", "only input nodes take a placeholder") }
            spec.placeholder = try template(placeholder, at: path + "/placeholder")
        }
        if let children = object["children"] {
            guard kind == .stack || kind == .box || kind == .scroll else {
                throw ViewDecodingError(path + "/children", "a \(typeName) node has no children\(kind == .list ? "; a list takes items and a template" : "")")
            }
            guard case .array(let array) = children else {
                throw ViewDecodingError(path + "/children", "expected an array of nodes, got \(children.typeName)")
            }
            for (i, child) in array.enumerated() {
                spec.children.append(try node(child, at: path + "/children/" + String(i), depth: depth + 1))
            }
        }
        if let on = object["on"] {
            guard case .object(let handlers) = on else {
                throw ViewDecodingError(path + "/on", "expected an object of event → handler name, got \(on.typeName)")
            }
            for (event, handler) in handlers {
                let at = JSONPointer.appending(path + "/on", key: event)
                guard event == "press" || event == "change" || event == "submit" else {
                    throw ViewDecodingError(at, "unknown event; expected one of press, change, submit")
                }
                let name = try string(handler, at: at)
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "$" }) else {
                    throw ViewDecodingError(at, "expected a JS function name such as \"tasks.add\", got \"\(name)\"")
                }
                spec.handlers[event] = name
            }
        }
        if kind == .list {
            guard let items = object["items"] else { throw ViewDecodingError(path + "/items", "missing; a list needs items, such as \"${tasks}\"") }
            spec.items = try template(items, at: path + "/items")
            guard spec.items?.singlePath != nil else {
                throw ViewDecodingError(path + "/items", "expected one template such as \"${tasks}\"")
            }
            guard let template = object["template"] else { throw ViewDecodingError(path + "/template", "missing; a list needs a template node") }
            spec.template = [try node(template, at: path + "/template", depth: depth + 1)]
            if let key = object["key"] { spec.key = try string(key, at: path + "/key") }
        } else {
            for key in ["items", "template", "key"] where object[key] != nil {
                throw ViewDecodingError(path + "/" + key, "only list nodes take \(key)")
            }
        }
        return spec
    }

    static func string(_ value: JSONValue, at path: String) throws(ViewDecodingError) -> String {
        guard case .string(let s) = value else { throw ViewDecodingError(path, "expected a string, got \(value.typeName)") }
        return s
    }

    static func template(_ value: JSONValue, at path: String) throws(ViewDecodingError) -> TemplateString {
        let text: String
        switch value {
        case .string(let s): text = s
        case .number, .bool: text = JSONWriter.write(value)
        default: throw ViewDecodingError(path, "expected a string, got \(value.typeName)")
        }
        switch TemplateString.parse(text) {
        case .success(let t): return t
        case .failure(let e): throw ViewDecodingError(path, e.message)
        }
    }

    static func style(_ json: JSONValue, at path: String) throws(ViewDecodingError) -> ViewStyle {
        guard case .object(let object) = json else { throw ViewDecodingError(path, "expected a style object, got \(json.typeName)") }
        var style = ViewStyle()
        for (key, value) in object {
            try apply(key, value, to: &style, at: JSONPointer.appending(path, key: key))
        }
        return style
    }

    static func apply(_ key: String, _ value: JSONValue, to style: inout ViewStyle, at path: String) throws(ViewDecodingError) {
        switch key {
        case "direction": style.direction = try oneOf(value, at: path)
        case "gap": style.gap = try count(value, at: path)
        case "align": style.align = try oneOf(value, at: path)
        case "alignSelf": style.alignSelf = try oneOf(value, at: path)
        case "justify": style.justify = try oneOf(value, at: path)
        case "grow": style.grow = try factor(value, at: path)
        case "shrink": style.shrink = try factor(value, at: path)
        case "basis": style.basis = try dimension(value, at: path)
        case "width": style.width = try dimension(value, at: path)
        case "height": style.height = try dimension(value, at: path)
        case "minWidth": style.minWidth = try dimension(value, at: path)
        case "maxWidth": style.maxWidth = try dimension(value, at: path)
        case "minHeight": style.minHeight = try dimension(value, at: path)
        case "maxHeight": style.maxHeight = try dimension(value, at: path)
        case "padding": style.padding = try edges(value, at: path)
        case "margin": style.margin = try edges(value, at: path)
        case "border": style.border = try oneOf(value, at: path)
        case "borderColor": style.borderColor = try color(value, at: path)
        case "background": style.background = try color(value, at: path)
        case "color": style.color = try color(value, at: path)
        case "bold": style.bold = try flag(value, at: path)
        case "italic": style.italic = try flag(value, at: path)
        case "underline": style.underline = try flag(value, at: path)
        case "dim": style.dim = try flag(value, at: path)
        case "inverse": style.inverse = try flag(value, at: path)
        case "overflow": style.overflow = try oneOf(value, at: path)
        default:
            throw ViewDecodingError(path, "unknown style property; expected one of \(styleKeys.joined(separator: ", "))")
        }
    }

    static func oneOf<T: RawRepresentable & CaseIterable>(_ value: JSONValue, at path: String) throws(ViewDecodingError) -> T
        where T.RawValue == String
    {
        let names = T.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .string(let s) = value, let v = T(rawValue: s) else {
            let got = value.stringValue.map { "\"\($0)\"" } ?? value.typeName
            throw ViewDecodingError(path, "expected one of \(names), got \(got)")
        }
        return v
    }

    static func count(_ value: JSONValue, at path: String) throws(ViewDecodingError) -> Int {
        guard let n = value.intValue, n >= 0, n <= 10_000 else {
            throw ViewDecodingError(path, "expected a whole number of cells from 0 to 10000, got \(describe(value))")
        }
        return n
    }

    static func factor(_ value: JSONValue, at path: String) throws(ViewDecodingError) -> Double {
        guard let n = value.numberValue, n >= 0, n <= 10_000 else {
            throw ViewDecodingError(path, "expected a number from 0 to 10000, got \(describe(value))")
        }
        return n
    }

    static func flag(_ value: JSONValue, at path: String) throws(ViewDecodingError) -> Bool {
        guard let b = value.boolValue else { throw ViewDecodingError(path, "expected true or false, got \(value.typeName)") }
        return b
    }

    static func dimension(_ value: JSONValue, at path: String) throws(ViewDecodingError) -> Dimension {
        switch value {
        case .number: return .cells(try count(value, at: path))
        case .string("auto"): return .auto
        case .string(let s) where s.hasSuffix("%"):
            if let p = Double(s.dropLast()), p >= 0, p <= 100 { return .percent(p) }
        default: break
        }
        throw ViewDecodingError(path, "expected a number of cells, a percentage such as \"50%\", or \"auto\", got \(describe(value))")
    }

    static func edges(_ value: JSONValue, at path: String) throws(ViewDecodingError) -> Edges {
        if value.numberValue != nil {
            let n = try count(value, at: path)
            return Edges(top: n, right: n, bottom: n, left: n)
        }
        guard case .array(let a) = value, a.count == 2 || a.count == 4 else {
            throw ViewDecodingError(path, "expected a number, [vertical, horizontal] or [top, right, bottom, left], got \(describe(value))")
        }
        var n: [Int] = []
        for (i, v) in a.enumerated() { n.append(try count(v, at: path + "/" + String(i))) }
        return a.count == 2 ? Edges(top: n[0], right: n[1], bottom: n[0], left: n[1]) : Edges(top: n[0], right: n[1], bottom: n[2], left: n[3])
    }

    static func color(_ value: JSONValue, at path: String) throws(ViewDecodingError) -> TerminalColor {
        let ref: JSONValueRef? = switch value {
        case .number(let n): .number(n)
        case .string(let s): .string(s)
        default: nil
        }
        guard let ref, let color = TerminalColor.parse(ref) else {
            throw ViewDecodingError(path, "expected a color name (\(TerminalColor.names.joined(separator: ", "))), a 256-color index 0–255 or \"#rrggbb\", got \(describe(value))")
        }
        return color
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): "\"\(s)\""
        case .number, .bool, .null: JSONWriter.write(value)
        default: value.typeName
        }
    }
}
