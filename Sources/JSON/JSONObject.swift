/// The members of a JSON object, in insertion order.
///
/// Bridge payloads are small objects built once and read a few times, so an array of pairs beats a
/// hash table: no hashing on the way in, a short scan on the way out. Equality ignores order, as
/// JSON's does.
public struct JSONObject: Sendable, Hashable, Sequence {
    public typealias Member = (key: String, value: JSONValue)

    public private(set) var members: [Member]

    public init() { members = [] }

    public init(_ members: [Member]) { self.members = members }

    public init(minimumCapacity: Int) {
        members = []
        members.reserveCapacity(minimumCapacity)
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get {
            // Through the buffer: `for member in members` copies (retains and releases) each
            // member's key and value on the way, and a params reader looks up a dozen keys.
            members.withUnsafeBufferPointer { members in
                for index in members.indices where members[index].key == key { return members[index].value }
                return nil
            }
        }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key: key, value: newValue))
            }
        }
    }

    /// Appends a member without looking for an earlier one of the same key: for builders that know
    /// their keys are distinct (such as a walk over a JS object's own properties).
    public mutating func appendUnique(_ key: String, _ value: JSONValue) {
        members.append((key: key, value: value))
    }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // A scan of the other's members per key for small objects; an index of them for larger
        // ones, where the scans made n keys cost n²/2 comparisons.
        guard lhs.count > 16 else {
            for member in lhs.members {
                guard let other = rhs[member.key], other == member.value else { return false }
            }
            return true
        }
        var others: [String: JSONValue] = [:]
        others.reserveCapacity(rhs.count)
        for member in rhs.members where others[member.key] == nil { others[member.key] = member.value }
        for member in lhs.members {
            guard let other = others[member.key], other == member.value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==.
        var combined = 0
        for member in members {
            var h = Hasher()
            h.combine(member.key)
            h.combine(member.value)
            combined ^= h.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}
