import JSON
import Persistence

/// Turns a kv value into the bytes stored in its row, and back: the extension point of the
/// key-value store's design ("inject serialization, cache what is decoded"). JSON is the default.
///
/// ```swift
/// struct Compact: Serializer { ... }
/// let store = try KeyValueStore(directory: dir, serializer: Compact())
/// ```
public protocol Serializer: Sendable {
    func serialize(_ value: JSONValue, bucket: String, key: String) throws -> [UInt8]
    func deserialize(_ bytes: [UInt8], bucket: String, key: String) throws -> JSONValue
}

/// JSON text; a value that is bytes at its top level is kept raw behind a 0 byte (JSON text never
/// starts with one), so a `Uint8Array` comes back as one.
public struct JSONSerializer: Serializer {
    public init() {}

    public func serialize(_ value: JSONValue, bucket: String, key: String) throws -> [UInt8] {
        if case .bytes(let bytes) = value { return [0] + bytes }
        return JSONWriter.bytes(value)
    }

    public func deserialize(_ bytes: [UInt8], bucket: String, key: String) throws -> JSONValue {
        if bytes.first == 0 { return .bytes(Array(bytes.dropFirst())) }
        return try JSONParser.parse(bytes)
    }
}
