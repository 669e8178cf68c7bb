import JSON

/// `JSONParser.parse` over raw bytes. What it accepts, `JSONWriter` writes back as text the parser
/// reads to the same value (compact, pretty and with sorted keys), and JSON Pointers built from
/// the value's own paths resolve to the values they name.
enum JSONFuzzTarget {
    static let target = FuzzTarget(name: "json", summary: "JSONParser.parse; writer round trip; pointers") { input throws(FuzzFinding) in
        try run(input)
    }

    static func run(_ input: [UInt8]) throws(FuzzFinding) {
        guard let value = try? JSONParser.parse(input) else { return }
        for options in [JSONWriter.Options(), JSONWriter.Options(pretty: true), JSONWriter.Options(sortedKeys: true)] {
            let text = JSONWriter.bytes(value, options: options)
            let again: JSONValue
            do {
                again = try JSONParser.parse(text)
            } catch {
                throw FuzzFinding("json", "the writer's text does not parse: \(error)")
            }
            guard again == value else {
                throw FuzzFinding("json", "the value changed on a write and a parse: \(value) became \(again)")
            }
        }
        var checked = 0
        try checkPointers(value, pointer: "", root: value, checked: &checked)
    }

    /// Resolves the pointer of each value under `value` (the first 256), escapes included.
    static func checkPointers(_ value: JSONValue, pointer: String, root: JSONValue, checked: inout Int) throws(FuzzFinding) {
        guard checked < 256 else { return }
        checked += 1
        guard JSONPointer.resolve(pointer, in: root) == value else {
            throw FuzzFinding("json", "the pointer \"\(pointer)\" does not resolve to the value it was built for")
        }
        switch value {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try checkPointers(element, pointer: JSONPointer.appending(pointer, index: index), root: root, checked: &checked)
            }
        case .object(let object):
            for member in object.members {
                try checkPointers(member.value, pointer: JSONPointer.appending(pointer, key: member.key), root: root, checked: &checked)
            }
        default:
            break
        }
    }
}
