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

    /// Headers the status calls for: `Allow` on a 405, `Retry-After` on a 429.
    public var headers: HTTPFields {
        var headers: HTTPFields = [:]
        if let allow { headers[.allow] = allow }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return headers
    }
    var allow: String?
    var retryAfter: Int?

    /// 429: a limit was passed; try again in `seconds`.
    static func limited(_ message: String, retryAfter seconds: Int) -> PatchServerError {
        var error = PatchServerError(429, "rate_limited", message)
        error.retryAfter = seconds
        return error
    }

    /// Any error as this API says it. Hummingbird's 404 for a path no route has stays a 404; for
    /// a route's path asked with another method it is a 405 naming the methods in `Allow`.
    static func translating(_ error: any Error, request: Request) -> PatchServerError {
        switch error {
        case let error as PatchServerError: return error
        case let error as PatchError: return PatchServerError(error)
        case let error as any HTTPResponseError where error.status == .notFound:
            let path = request.uri.path
            let methods = PatchRoute.methods(for: path)
            guard methods.isEmpty else {
                var refusal = PatchServerError(405, "method_not_allowed", "\(request.method.rawValue) \(path): expected \(methods.joined(separator: " or "))")
                refusal.allow = methods.joined(separator: ", ")
                return refusal
            }
            return PatchServerError(404, "not_found", "\(request.method.rawValue) \(path): no such endpoint; GET /v1/openapi.json lists them")
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            return PatchServerError(413, "too_large", "body: larger than the server's --max-body-bytes")
        case let error as any HTTPResponseError:
            return PatchServerError(Int(error.status.code), "http", "\(error)")
        default: return PatchServerError(500, "internal", "the server failed: \(error)")
        }
    }
}
