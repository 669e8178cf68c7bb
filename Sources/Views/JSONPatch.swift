import JSON

/// RFC 6902 JSON Patch: `add`, `remove`, `replace`, `move`, `copy`, `test`, applied in order to a
/// copy; any failing operation leaves the value as it was.
public enum JSONPatch {
    public static func apply(_ patch: JSONValue, to value: JSONValue) throws(JSONPatchError) -> JSONValue {
        guard case .array(let operations) = patch else { throw JSONPatchError(path: "", message: "expected an array of operations, got \(patch.typeName)") }
        var result = value
        for (i, operation) in operations.enumerated() {
            let at = "/" + String(i)
            guard case .object(let op) = operation else { throw JSONPatchError(path: at, message: "expected an operation object, got \(operation.typeName)") }
            guard let name = op["op"]?.stringValue else { throw JSONPatchError(path: at + "/op", message: "expected one of add, remove, replace, move, copy, test") }
            guard let path = op["path"]?.stringValue, let tokens = JSONPointer.tokens(path) else {
                throw JSONPatchError(path: at + "/path", message: "expected a JSON Pointer string")
            }
            func operand() throws(JSONPatchError) -> JSONValue {
                guard let v = op["value"] else { throw JSONPatchError(path: at + "/value", message: "missing; \(name) needs a value") }
                return v
            }
            func from() throws(JSONPatchError) -> [String] {
                guard let f = op["from"]?.stringValue, let t = JSONPointer.tokens(f) else {
                    throw JSONPatchError(path: at + "/from", message: "expected a JSON Pointer string")
                }
                return t
            }
            switch name {
            case "add": try edit(&result, tokens, at: at, insert: true) { (c: inout JSONValue?, last, isArray) throws(JSONPatchError) in c = try operand() }
            case "remove": try edit(&result, tokens, at: at, insert: false) { (c: inout JSONValue?, _, _) throws(JSONPatchError) in
                    guard c != nil else { throw JSONPatchError(path: at + "/path", message: "\(path) does not exist") }
                    c = nil
                }
            case "replace": try edit(&result, tokens, at: at, insert: false) { (c: inout JSONValue?, _, _) throws(JSONPatchError) in
                    guard c != nil else { throw JSONPatchError(path: at + "/path", message: "\(path) does not exist") }
                    c = try operand()
                }
            case "move", "copy":
                let source = try from()
                guard let moved = JSONPointer.resolve(op["from"]!.stringValue!, in: result) else {
                    throw JSONPatchError(path: at + "/from", message: "\(op["from"]!.stringValue!) does not exist")
                }
                if name == "move" {
                    try edit(&result, source, at: at, insert: false) { (c: inout JSONValue?, _, _) throws(JSONPatchError) in c = nil }
                }
                try edit(&result, tokens, at: at, insert: true) { (c: inout JSONValue?, _, _) throws(JSONPatchError) in c = moved }
            case "test":
                let expected = try operand()
                guard JSONPointer.resolve(path, in: result) == expected else {
                    throw JSONPatchError(path: at, message: "test failed: \(path) is not \(JSONWriter.write(expected))")
                }
            default:
                throw JSONPatchError(path: at + "/op", message: "expected one of add, remove, replace, move, copy, test, got \"\(name)\"")
            }
        }
        return result
    }

    /// Finds the parent of `tokens` and lets `body` change the member (nil: absent / remove it).
    static func edit(_ value: inout JSONValue, _ tokens: [String], at: String, insert: Bool,
                     _ body: (inout JSONValue?, String, Bool) throws(JSONPatchError) -> Void) throws(JSONPatchError) {
        guard let first = tokens.first else {
            var whole: JSONValue? = value
            try body(&whole, "", false)
            value = whole ?? .null
            return
        }
        if tokens.count > 1 {
            switch value {
            case .object(var object):
                guard var child = object[first] else { throw JSONPatchError(path: at + "/path", message: "/\(first) does not exist") }
                value = .null
                try edit(&child, Array(tokens.dropFirst()), at: at, insert: insert, body)
                object[first] = child
                value = .object(object)
            case .array(var array):
                    let i = try index(first, at: at)
                guard array.indices.contains(i) else { throw JSONPatchError(path: at + "/path", message: "index \(first) is out of range") }
                value = .null
                try edit(&array[i], Array(tokens.dropFirst()), at: at, insert: insert, body)
                value = .array(array)
            default:
                throw JSONPatchError(path: at + "/path", message: "\(first) is inside a \(value.typeName)")
            }
            return
        }
        switch value {
        case .object(var object):
            var member = object[first]
            try body(&member, first, false)
            object[first] = member
            value = .object(object)
        case .array(var array):
            let i = first == "-" ? array.count : try index(first, at: at)
            guard i <= array.count, insert || i < array.count else {
                throw JSONPatchError(path: at + "/path", message: "index \(first) is out of range")
            }
            var member: JSONValue? = (insert || i >= array.count) ? nil : array[i]
            try body(&member, first, true)
            if insert {
                if let member { array.insert(member, at: i) }
            } else if let member {
                array[i] = member
            } else {
                array.remove(at: i)
            }
            value = .array(array)
        default:
            throw JSONPatchError(path: at + "/path", message: "cannot add to a \(value.typeName)")
        }
    }
}

extension JSONPatch {
    /// An array index as RFC 6901 writes it: `0`, or digits without a leading zero.
    static func index(_ token: String, at: String) throws(JSONPatchError) -> Int {
        guard let i = JSONPointer.arrayIndex(token) else {
            let digits = !token.isEmpty && token.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            let why = digits ? "has a leading zero" : "is not a number"
            throw JSONPatchError(path: at + "/path", message: "array index \"\(token)\" \(why); expected 0, digits without a leading zero, or - for the end")
        }
        return i
    }
}

/// A JSON Patch that cannot be applied: `path` points into the patch (`/2/path`).
public struct JSONPatchError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
