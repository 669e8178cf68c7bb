import JSON

/// A value of `enum` or `const`, with what makes comparing an instance to it cheap.
///
/// Contracts compare short ASCII strings ("task", "note"): for those, `String`'s `==` (canonical
/// equivalence, one comparison for short strings) is exact once the UTF-8 lengths agree, for the
/// reason ``SchemaPropertyTable/slot(of:)`` gives, and costs less than comparing bytes.
struct SchemaConstant: Sendable {
    let value: JSONValue
    /// `value`'s string when it is one of ASCII only.
    private let asciiString: String?

    init(_ value: JSONValue) {
        self.value = value
        if case .string(let string) = value, string.utf8.allSatisfy({ $0 < 0x80 }) {
            asciiString = string
        } else {
            asciiString = nil
        }
    }

    /// Whether `instance` equals the value, as ``SchemaEquality/equal(_:_:)`` says.
    @inline(__always)
    func matches(_ instance: JSONValue) -> Bool {
        guard let asciiString else { return SchemaEquality.equal(value, instance) }
        guard case .string(let string) = instance else { return false }
        return string.utf8.count == asciiString.utf8.count && string == asciiString
    }
}
