import Hummingbird
import JSON

/// A response as the tests read it: the status and the body parsed with our JSON module.
struct HTTPReply: Sendable, CustomStringConvertible {
    let status: Int
    let body: JSONValue
    let text: String
    var headers: HTTPFields = [:]
    /// The body as sent (compressed, when the server compressed it).
    var raw: [UInt8] = []

    /// The `error.code` of an error body, when it is one.
    var errorCode: String? { body["error"]?["code"]?.stringValue }
    var errorMessage: String? { body["error"]?["message"]?.stringValue }
    var errorPath: String? { body["error"]?["path"]?.stringValue }

    var description: String { "\(status) \(text)" }
}
