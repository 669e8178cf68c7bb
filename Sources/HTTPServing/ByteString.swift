/// A string that equals another only when their UTF-8 bytes do, as SQLite and PostgreSQL compare
/// text, and hashes as its bytes.
///
/// Swift's `String ==`, and so `Set<String>` and `[String: _]`, is canonical equivalence:
/// `"team:caf\u{E9}" == "team:cafe\u{301}"` and `"\u{212A}ate" == "Kate"` (KELVIN SIGN), where the
/// database holds two scopes and two users. Whatever decides who may see or write what (a scope, a
/// user, a table, an opId) compares through this, so that the server decides as its database
/// stores, and a token granting one spelling never reaches rows or devices of the other.
///
/// ```swift
/// ByteString("team:caf\u{E9}") == ByteString("team:cafe\u{301}")  // false
/// var seen: Set<ByteString> = []
/// seen.insert(ByteString(op.opId))
/// ```
public struct ByteString: Hashable, Sendable, CustomStringConvertible {
    public let string: String

    public init(_ string: String) { self.string = string }

    public static func == (lhs: ByteString, rhs: ByteString) -> Bool {
        lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        let hashed: Void? = string.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in string.utf8 { hasher.combine(byte) }
        }
        // The length ends the bytes, so that no string's bytes are another's prefix in the hash.
        hasher.combine(string.utf8.count)
    }

    public var description: String { string }

    /// Whether two optional strings are both absent, or the same bytes.
    public static func same(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): ByteString(lhs) == ByteString(rhs)
        default: false
        }
    }

    /// Whether two lists hold the same bytes in the same order (a stored grant against a token's).
    public static func same(_ lhs: [String]?, _ rhs: [String]?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { ByteString($0) == ByteString($1) }
        default: false
        }
    }

    /// `strings` without later repeats of the same bytes, in their order.
    public static func distinct(_ strings: [String]) -> [String] {
        var seen: Set<ByteString> = []
        return strings.filter { seen.insert(ByteString($0)).inserted }
    }
}
