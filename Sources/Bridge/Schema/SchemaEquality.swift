import JSON

/// JSON equality as JSON Schema's `enum` and `const` mean it.
///
/// Swift's `String ==` compares canonical equivalence ("é" precomposed equals "e" + U+0301), while
/// JSON and jsonschema compare code points, so strings and keys are compared by their UTF-8 bytes.
/// Numbers compare by value (1 == 1.0, 0 == -0) and a boolean never equals a number.
enum SchemaEquality {
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        // One value at a time rather than `switch (a, b)`, whose tuple copies (and retains) both.
        switch a {
        case .null:
            if case .null = b { return true }
        case .bool(let x):
            if case .bool(let y) = b { return x == y }
        case .number(let x):
            if case .number(let y) = b { return x == y }
        case .string(let x):
            if case .string(let y) = b { return sameCodePoints(x, y) }
        case .bytes(let x):
            if case .bytes(let y) = b { return x == y }
        case .array(let x):
            guard case .array(let y) = b, x.count == y.count else { return false }
            for i in x.indices where !equal(x[i], y[i]) { return false }
            return true
        case .object(let x):
            guard case .object(let y) = b, x.count == y.count else { return false }
            for (key, value) in x.members {
                guard let other = member(named: key, in: y), equal(value, other) else { return false }
            }
            return true
        }
        return false
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
