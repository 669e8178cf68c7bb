// The JSON module: the value type every layer trades in, with a parser and a writer of its own.
// It must stay free of Foundation's JSONSerialization, which costs about 10 µs per small object on
// Linux: values cross the bridge thousands of times a second.

/// A JSON value, plus `bytes` for binary data that crosses the bridge as a `Uint8Array`.
///
/// Objects keep their keys in insertion order (see ``JSONObject``), so a value read from JS and
/// written back keeps the shape its author gave it.
///
/// ```swift
/// let value: JSONValue = ["title": "milk", "done": false, "tags": ["shop"]]
/// value["title"]?.stringValue   // "milk"
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
    case bytes([UInt8])

    /// The JSON type name used in error messages: "null", "boolean", "number", "string", "array",
    /// "object" or "bytes".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        case .bytes: "bytes"
        }
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    public var bytesValue: [UInt8]? { if case .bytes(let b) = self { b } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The number as an integer, when it is one exactly.
    public var intValue: Int? {
        guard case .number(let n) = self, n.rounded(.towardZero) == n, abs(n) < 9.0e15 else { return nil }
        return Int(n)
    }

    /// The member named `key` of an object; nil for other values or a missing key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The element at `index` of an array; nil for other values or an index out of range.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let a) = self, a.indices.contains(index) { return a[index] }
        return nil
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { JSONWriter.write(self) }
}
