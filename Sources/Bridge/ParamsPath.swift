import JSON

/// Where a value sits in a call's params: the JSON Pointer (`/items/3/key`) an error names.
///
/// Kept in parts and joined only when asked, because it is asked only when something is wrong:
/// decoding the 10 000 items of a `kv.getMany` builds no string. A path is a prefix, then at most
/// one array index, then at most one object key; going deeper joins the parts so far.
///
/// ```swift
/// let item = ParamsPath.root.appending(key: "items")   // "/items"
/// item.appending(index: 3).appending(key: "key").pointer   // "/items/3/key"
/// ```
public struct ParamsPath: Sendable, Equatable, CustomStringConvertible {
    @usableFromInline let prefix: String
    @usableFromInline let index: Int?
    @usableFromInline let key: String?

    /// The params themselves: the empty pointer.
    public static let root = ParamsPath("")

    /// The value `pointer` designates.
    public init(_ pointer: String) {
        self.init(prefix: pointer, index: nil, key: nil)
    }

    @usableFromInline
    init(prefix: String, index: Int?, key: String?) {
        self.prefix = prefix
        self.index = index
        self.key = key
    }

    /// The member `key` of the object at this path.
    @inlinable
    public func appending(key: String) -> ParamsPath {
        self.key == nil ? ParamsPath(prefix: prefix, index: index, key: key) : ParamsPath(prefix: pointer, index: nil, key: key)
    }

    /// The element `index` of the array at this path.
    @inlinable
    public func appending(index: Int) -> ParamsPath {
        self.index == nil && key == nil ? ParamsPath(prefix: prefix, index: index, key: nil) : ParamsPath(prefix: pointer, index: index, key: nil)
    }

    /// The path as an RFC 6901 JSON Pointer, as ``BridgeError/path`` holds it.
    public var pointer: String {
        var pointer = prefix
        if let index { pointer += "/" + String(index) }
        if let key { pointer = JSONPointer.appending(pointer, key: key) }
        return pointer
    }

    public var description: String { pointer }
}
