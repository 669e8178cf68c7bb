/// The property names one object schema knows (`properties` and `required`), for a walk over an
/// instance's members.
///
/// Contract objects are small, so a scan that compares lengths and first bytes before whole names
/// beats hashing: most keys are rejected without comparing strings ("kind" and "code" have one
/// length but not one first byte), and there is no canonical-equivalence detour through `String`'s
/// `==` or `Hasher`.
struct SchemaPropertyTable: Sendable {
    struct Entry: Sendable {
        let name: String
        let utf8Count: Int
        let firstByte: UInt8?
        let isASCII: Bool
        /// The `properties` subschema, or nil for a name only `required` lists.
        var node: Int?
        var isRequired: Bool

        init(_ name: String, node: Int?, isRequired: Bool) {
            self.name = name
            utf8Count = name.utf8.count
            firstByte = name.utf8.first
            isASCII = name.utf8.allSatisfy { $0 < 0x80 }
            self.node = node
            self.isRequired = isRequired
        }
    }

    private(set) var entries: [Entry] = []
    /// Slots of the required names, in the order `required` lists them.
    private(set) var requiredSlots: [Int] = []

    var isEmpty: Bool { entries.isEmpty }
    var requiredCount: Int { requiredSlots.count }

    @inline(__always)
    func slot(of key: String) -> Int? {
        let count = key.utf8.count
        let first = key.utf8.first
        for i in entries.indices where entries[i].utf8Count == count && entries[i].firstByte == first {
            // For an ASCII name, `==` (one compare for short strings) is exact once the byte
            // counts agree: the only non-ASCII text canonically equivalent to ASCII is made of
            // singletons such as U+212A KELVIN SIGN, each longer in UTF-8 than the letter it
            // stands for.
            if entries[i].isASCII ? entries[i].name == key : SchemaEquality.sameCodePoints(entries[i].name, key) { return i }
        }
        return nil
    }

    mutating func declare(_ name: String, node: Int) {
        if let slot = slot(of: name) {
            entries[slot].node = node
        } else {
            entries.append(Entry(name, node: node, isRequired: false))
        }
    }

    /// Returns false when `name` is already required.
    mutating func require(_ name: String) -> Bool {
        if let slot = slot(of: name) {
            guard !entries[slot].isRequired else { return false }
            entries[slot].isRequired = true
            requiredSlots.append(slot)
        } else {
            entries.append(Entry(name, node: nil, isRequired: true))
            requiredSlots.append(entries.count - 1)
        }
        return true
    }
}
