import HTTPServing
import Hummingbird
import JSON
import PatchProtocol

/// A refusal of the patch server: its HTTP status and `{"error": {"code", "message"}}`, the
/// message naming the field at fault and what was expected.
public struct PatchServerError: Error, JSONResponseError, CustomStringConvertible {
    public var code: Int
    public var reason: String
    public var message: String

    public init(_ code: Int, _ reason: String, _ message: String) {
        self.code = code
        self.reason = reason
        self.message = message
    }

    public var status: HTTPResponse.Status { HTTPResponse.Status(code: code) }
    public var body: JSONValue { ["error": ["code": .string(reason), "message": .string(message)]] }
    public var description: String { "\(code) \(reason): \(message)" }

    static func badRequest(_ message: String) -> PatchServerError { PatchServerError(400, "bad_request", message) }
    static func notFound(_ message: String) -> PatchServerError { PatchServerError(404, "not_found", message) }

    /// A patch or revocation refused by PatchProtocol: 400 when it is malformed, else 422.
    init(_ error: PatchError) {
        self.init(error.code == .malformed ? 400 : 422, error.code.rawValue, error.message)
    }

    /// Any error as this API says it.
    static func translating(_ error: any Error) -> PatchServerError {
        switch error {
        case let error as PatchServerError: error
        case let error as PatchError: PatchServerError(error)
        case let error as any HTTPResponseError where error.status == .notFound:
            PatchServerError(404, "not_found", "no such endpoint; expected /v1/apps/{app}/... (README.md, \"The patch server\", lists them)")
        case let error as any HTTPResponseError:
            PatchServerError(Int(error.status.code), "http", "\(error)")
        default: PatchServerError(500, "internal", "the server failed: \(error)")
        }
    }
}
