import JSON

/// A sync message that does not read: which field (a JSON Pointer), and what was expected there.
/// The server answers it as 400; the client treats it as a protocol failure.
public struct SyncWireError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// An RFC 6901 pointer into the message (`/ops/3/timestamp`).
    public let path: String
    /// The message is well formed but larger than the protocol allows (a server answers 413).
    public let tooLarge: Bool

    public init(_ message: String, path: String, tooLarge: Bool = false) {
        self.message = message
        self.path = path
        self.tooLarge = tooLarge
    }

    public var description: String { message }

    /// A field of the wrong type, or missing: `ops/3/timestamp: expected number, got string`.
    public static func field(_ pointer: String, expected: String, got value: JSONValue?) -> SyncWireError {
        let got = value.map { "got \($0.typeName)" } ?? "missing"
        return SyncWireError("\(readable(pointer)): expected \(expected), \(got)", path: pointer)
    }

    /// A field whose type is right but whose value is not: `ops/0/type: unknown op type "upsert" ...`.
    public static func invalid(_ pointer: String, _ message: String) -> SyncWireError {
        SyncWireError("\(readable(pointer)): \(message)", path: pointer)
    }

    /// The pointer as people read it in a message: `ops/3/timestamp`, or `body` for the root.
    public static func readable(_ pointer: String) -> String {
        pointer.isEmpty ? "body" : String(pointer.dropFirst())
    }
}
