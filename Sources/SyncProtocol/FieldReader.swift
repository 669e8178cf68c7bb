import JSON

/// Reads the typed fields of one JSON object of a request, naming each field by its JSON Pointer
/// when it is missing or of the wrong type.
///
/// Request bodies are read with our JSON module rather than Codable so that every refusal says which
/// field, where, and what was expected (`ops/3/timestamp: expected number, got string`).
public struct FieldReader {
    public let object: JSONObject
    /// The pointer of ``object`` itself ("" for the body).
    public let pointer: String

    /// Reads `value` as an object; `pointer` names it in the error when it is not one.
    public init(_ value: JSONValue?, at pointer: String) throws(SyncWireError) {
        guard case .object(let object)? = value else {
            throw SyncWireError.field(pointer, expected: "object", got: value)
        }
        self.object = object
        self.pointer = pointer
    }

    public func path(_ key: String) -> String { JSONPointer.appending(pointer, key: key) }

    /// A required, non-empty string without U+0000 (these strings are ids, and an id stored as
    /// SQLite text ends at U+0000: `a\u0000b` would be taken for `a`).
    public func string(_ key: String) throws(SyncWireError) -> String {
        guard case .string(let text)? = object[key] else {
            throw SyncWireError.field(path(key), expected: "string", got: object[key])
        }
        guard !text.isEmpty else { throw SyncWireError.invalid(path(key), "expected a non-empty string") }
        try refuseNUL(text, key)
        return text
    }

    /// A string, null or absent; an empty string is refused like a missing required one would be,
    /// and so is one with U+0000.
    public func optionalString(_ key: String) throws(SyncWireError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?:
            guard !text.isEmpty else { throw SyncWireError.invalid(path(key), "expected a non-empty string or null") }
            try refuseNUL(text, key)
            return text
        case let other?: throw SyncWireError.field(path(key), expected: "string or null", got: other)
        }
    }

    private func refuseNUL(_ text: String, _ key: String) throws(SyncWireError) {
        guard !text.utf8.contains(0) else { throw SyncWireError.invalid(path(key), "expected no U+0000 character") }
    }

    /// A required number (field must be present, even though JSON numbers have no integer type).
    public func number(_ key: String) throws(SyncWireError) -> Double {
        guard case .number(let number)? = object[key] else {
            throw SyncWireError.field(path(key), expected: "number", got: object[key])
        }
        return number
    }

    /// An object, null or absent.
    public func optionalObject(_ key: String) throws(SyncWireError) -> JSONObject? {
        switch object[key] {
        case nil, .null?: return nil
        case .object(let value)?: return value
        case let other?: throw SyncWireError.field(path(key), expected: "object or null", got: other)
        }
    }

    /// A required array.
    public func array(_ key: String) throws(SyncWireError) -> [JSONValue] {
        guard case .array(let elements)? = object[key] else {
            throw SyncWireError.field(path(key), expected: "array", got: object[key])
        }
        return elements
    }

    // Answers are read with the same reader: their texts (messages, reasons) may be anything, and
    // their numbers are counts and cursors.

    /// A required string, of any content.
    public func text(_ key: String) throws(SyncWireError) -> String {
        guard case .string(let text)? = object[key] else {
            throw SyncWireError.field(path(key), expected: "string", got: object[key])
        }
        return text
    }

    /// A string of any content, null or absent.
    public func optionalText(_ key: String) throws(SyncWireError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw SyncWireError.field(path(key), expected: "string or null", got: other)
        }
    }

    /// A required whole number, at most 2^53 (what JSON carries exactly).
    public func integer(_ key: String) throws(SyncWireError) -> Int {
        guard case .number(let number)? = object[key] else {
            throw SyncWireError.field(path(key), expected: "integer", got: object[key])
        }
        guard number == number.rounded(), abs(number) <= 9_007_199_254_740_992 else {
            throw SyncWireError.invalid(path(key), "expected an integer, got \(number)")
        }
        return Int(number)
    }

    /// A required boolean.
    public func bool(_ key: String) throws(SyncWireError) -> Bool {
        guard case .bool(let value)? = object[key] else {
            throw SyncWireError.field(path(key), expected: "boolean", got: object[key])
        }
        return value
    }

    /// A required array of strings.
    public func texts(_ key: String) throws(SyncWireError) -> [String] {
        var texts: [String] = []
        for (index, element) in try array(key).enumerated() {
            guard case .string(let text) = element else {
                throw SyncWireError.field(JSONPointer.appending(path(key), index: index), expected: "string", got: element)
            }
            texts.append(text)
        }
        return texts
    }

    /// An array of strings, or absent (nil).
    public func optionalTexts(_ key: String) throws(SyncWireError) -> [String]? {
        object[key] == nil ? nil : try texts(key)
    }
}
