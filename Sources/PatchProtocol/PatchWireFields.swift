import JSON

/// Reads the fields of a wire object, each failure naming the field and what was expected.
struct PatchWireFields {
    let object: JSONObject
    let label: String

    init(_ json: JSONValue, label: String) throws(PatchError) {
        guard case .object(let object) = json else { throw PatchError(.malformed, "\(label): expected a JSON object") }
        self.object = object
        self.label = label
    }

    func string(_ name: String, optional: Bool = false) throws(PatchError) -> String? {
        guard let value = object[name], !value.isNull else {
            if optional { return nil }
            throw PatchError(.malformed, "\(label).\(name): expected a string")
        }
        guard let text = value.stringValue, !text.isEmpty else { throw PatchError(.malformed, "\(label).\(name): expected a non-empty string") }
        return text
    }

    func required(_ name: String) throws(PatchError) -> String {
        guard let text = try string(name) else { throw PatchError(.malformed, "\(label).\(name): expected a string") }
        return text
    }

    func version(_ name: String, optional: Bool = false) throws(PatchError) -> Int? {
        guard let value = object[name], !value.isNull else {
            if optional { return nil }
            throw PatchError(.malformed, "\(label).\(name): expected a positive integer")
        }
        guard let number = value.intValue, number >= 0 else { throw PatchError(.malformed, "\(label).\(name): expected a non-negative integer") }
        return number
    }
}
