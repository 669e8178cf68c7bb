import JSON

/// JSON equality as JSON Schema's `enum` and `const` mean it.
///
/// Swift's `String ==` compares canonical equivalence ("é" precomposed equals "e" + U+0301), while
/// JSON and jsonschema compare code points, so strings and keys are compared by their UTF-8 bytes.
/// Numbers compare by value (1 == 1.0, 0 == -0) and a boolean never equals a number.
enum SchemaEquality {
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return sameCodePoints(x, y)
        case (.bytes(let x), .bytes(let y)): return x == y
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for i in x.indices where !equal(x[i], y[i]) { return false }
            return true
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for (key, value) in x.members {
                guard let other = member(named: key, in: y), equal(value, other) else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// The value of the member whose key has exactly the code points of `key`.
    static func member(named key: String, in object: JSONObject) -> JSONValue? {
        for member in object.members where sameCodePoints(member.key, key) { return member.value }
        return nil
    }

    /// Byte-for-byte equality of the UTF-8 forms, which is code point equality.
    @inline(__always)
    static func sameCodePoints(_ a: String, _ b: String) -> Bool {
        let x = a.utf8
        let y = b.utf8
        guard x.count == y.count else { return false }
        let same = x.withContiguousStorageIfAvailable { xs in
            y.withContiguousStorageIfAvailable { ys in xs.elementsEqual(ys) }
        }
        if let same, let same { return same }
        return x.elementsEqual(y)
    }
}
