import JSON

/// The JSON types a schema's `type` keyword admits.
struct SchemaTypeSet: OptionSet, Sendable {
    let rawValue: UInt8

    static let null = SchemaTypeSet(rawValue: 1 << 0)
    static let boolean = SchemaTypeSet(rawValue: 1 << 1)
    static let integer = SchemaTypeSet(rawValue: 1 << 2)
    static let number = SchemaTypeSet(rawValue: 1 << 3)
    static let string = SchemaTypeSet(rawValue: 1 << 4)
    static let array = SchemaTypeSet(rawValue: 1 << 5)
    static let object = SchemaTypeSet(rawValue: 1 << 6)

    /// The names draft 2020-12 allows, in the order error messages list them.
    static let names: [(name: String, type: SchemaTypeSet)] = [
        ("array", .array), ("boolean", .boolean), ("integer", .integer), ("null", .null),
        ("number", .number), ("object", .object), ("string", .string),
    ]

    static func named(_ name: String) -> SchemaTypeSet? {
        for entry in names where SchemaEquality.sameCodePoints(entry.name, name) { return entry.type }
        return nil
    }

    /// Whether `instance` has one of these types. An integer is a number with no fractional part
    /// (1.0 counts); `bytes` passes only as a string the schema marks `"format": "binary"`.
    func admits(_ instance: JSONValue, binary: Bool) -> Bool {
        switch instance {
        case .null: contains(.null)
        case .bool: contains(.boolean)
        case .number(let n): contains(.number) || (contains(.integer) && n.isFinite && n.rounded(.towardZero) == n)
        case .string: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        case .bytes: binary && contains(.string)
        }
    }
}
