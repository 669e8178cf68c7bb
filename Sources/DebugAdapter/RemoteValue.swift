import JSON

/// A `Runtime.RemoteObject` as the debug console and the variables pane show it: a one-line
/// value (`"milk"`, `42`, `Array(3)`, `Map(2) {"a" => 1}`, `{title: "milk", done: false}`), its
/// type, and whether it opens.
struct RemoteValue {
    let object: JSONObject

    var type: String { object["type"]?.stringValue ?? "undefined" }
    var subtype: String? { object["subtype"]?.stringValue }
    var className: String? { object["className"]?.stringValue }
    var objectId: String? { object["objectId"]?.stringValue }

    /// Objects and functions open (a function shows its properties), null does not.
    var isExpandable: Bool { objectId != nil && subtype != "null" && (type == "object" || type == "function") }

    /// Maps and Sets list their entries beside their properties.
    var isCollection: Bool { ["map", "set", "weakmap", "weakset"].contains(subtype ?? "") }

    /// The type DAP's `type` field carries.
    var typeName: String {
        if type == "object" { return subtype == "null" ? "null" : className ?? subtype ?? "object" }
        return type
    }

    var display: String {
        switch type {
        case "string":
            return JSONWriter.write(object["value"] ?? .string(object["description"]?.stringValue ?? ""))
        case "undefined":
            return "undefined"
        case "number", "boolean":
            return object["description"]?.stringValue ?? object["value"].map { JSONWriter.write($0) } ?? type
        case "bigint":
            return (object["description"]?.stringValue ?? "0") + "n"
        case "function":
            return object["description"]?.stringValue.map(Self.functionHeader) ?? "function"
        case "object" where subtype == "null":
            return "null"
        case "object":
            return objectDisplay
        default:
            return object["description"]?.stringValue ?? type
        }
    }

    private var objectDisplay: String {
        let description = object["description"]?.stringValue ?? className ?? "Object"
        let size = object["size"]?.intValue
        guard let preview = object["preview"]?.objectValue else {
            if let size, subtype == "array" || isCollection { return "\(className ?? description)(\(size))" }
            return description
        }
        let overflow = preview["overflow"]?.boolValue == true ? ", …" : ""
        if let entries = preview["entries"]?.arrayValue {
            let shown = entries.compactMap(\.objectValue).map { entry -> String in
                let value = Self.previewText(entry["value"]?.objectValue)
                if let key = entry["key"]?.objectValue { return "\(Self.previewText(key)) => \(value)" }
                return value
            }
            return "\(className ?? description)(\(size ?? shown.count)) {\(shown.joined(separator: ", "))\(overflow)}"
        }
        let properties = (preview["properties"]?.arrayValue ?? []).compactMap(\.objectValue)
        if subtype == "array" {
            return "\(className ?? "Array")(\(size ?? properties.count)) [\(properties.map(Self.propertyText).joined(separator: ", "))\(overflow)]"
        }
        if subtype != nil || className == "Promise" {
            let inner = properties.map { "\($0["name"]?.stringValue ?? ""): \(Self.propertyText($0))" }
            return inner.isEmpty ? description : "\(description) {\(inner.joined(separator: ", "))}"
        }
        let inner = properties.map { "\($0["name"]?.stringValue ?? ""): \(Self.propertyText($0))" }
        let prefix = className == nil || className == "Object" ? "" : (className! + " ")
        return "\(prefix){\(inner.joined(separator: ", "))\(overflow)}"
    }

    private static func propertyText(_ property: JSONObject) -> String {
        let value = property["value"]?.stringValue
        switch property["type"]?.stringValue {
        case "string": return JSONWriter.write(.string(value ?? ""))
        case "object" where property["subtype"]?.stringValue == "null": return "null"
        case "object": return value ?? "Object"
        case "function": return "ƒ"
        case "accessor": return "(…)"
        default: return value ?? "undefined"
        }
    }

    private static func previewText(_ preview: JSONObject?) -> String {
        guard let preview else { return "undefined" }
        let description = preview["description"]?.stringValue
        switch preview["type"]?.stringValue {
        case "string": return JSONWriter.write(.string(description ?? ""))
        case "object" where preview["subtype"]?.stringValue == "null": return "null"
        default: return description ?? "undefined"
        }
    }

    /// A function's first line: `function total(items) {` or `(a) => a + 1`, trimmed.
    static func functionHeader(_ source: String) -> String {
        let line = source.prefix { $0 != "\n" }
        return line.count > 80 ? String(line.prefix(79)) + "…" : String(line)
    }
}
