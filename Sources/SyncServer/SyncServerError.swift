import JSON

/// Why a request was refused: a stable code, a message that says what was expected and where, and
/// the JSON Pointer of the offending field when there is one.
///
/// Every refusal leaves the server's state as it was, so a client can fix the request and send it
/// again. On the wire it is `{"error": {"code", "message", "path"?, "reason"?, "opId"?}}` with
/// ``status`` (Sources/SyncServer/openapi.json has every status and body).
public struct SyncServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable codes a client may branch on.
    public enum Code: String, Sendable, CaseIterable {
        case badRequest = "bad_request"
        case unauthorized
        case forbidden
        case notFound = "not_found"
        /// A path the server has, asked with a method it does not answer there.
        case methodNotAllowed = "method_not_allowed"
        case tooLarge = "too_large"
        case conflict
        /// The op log before the client's cursor was compacted: start again from a snapshot.
        case compacted
        /// The device made more requests than its rate limit allows: wait ``retryAfter`` seconds.
        case rateLimited = "rate_limited"
        /// The server failed (a database error): the request may be retried as it is.
        case internalError = "internal"
    }

    public let code: Code
    public let message: String
    /// An RFC 6901 pointer into the request body or query (`/ops/3/timestamp`), when one field is
    /// at fault.
    public let path: String?
    /// A finer reason a client may branch on: a token's (`expired`, `signature`, ...) for 401, `scope`
    /// for an op outside the device's scopes.
    public let reason: String?
    /// The op of a pushed packet that was refused (for reason `scope`), so that the client fails
    /// that op alone.
    public var opId: String?
    /// For ``Code/rateLimited``: whole seconds until the device's next request is let through
    /// (the `Retry-After` header).
    public var retryAfter: Int?

    public init(_ code: Code, _ message: String, path: String? = nil, reason: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.reason = reason
    }

    /// The HTTP status that carries this error.
    public var status: Int {
        switch code {
        case .badRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .methodNotAllowed: 405
        case .conflict: 409
        case .compacted: 410
        case .tooLarge: 413
        case .rateLimited: 429
        case .internalError: 500
        }
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// The response body.
    public var json: JSONValue {
        var error: JSONObject = ["code": .string(code.rawValue), "message": .string(message)]
        if let path { error["path"] = .string(path) }
        if let reason { error["reason"] = .string(reason) }
        if let opId { error["opId"] = .string(opId) }
        return ["error": .object(error)]
    }

    /// A field of the wrong type, or missing: `ops/3/timestamp: expected number, got string`.
    static func field(_ pointer: String, expected: String, got value: JSONValue?) -> SyncServerError {
        let got = value.map { "got \($0.typeName)" } ?? "missing"
        return SyncServerError(.badRequest, "\(readable(pointer)): expected \(expected), \(got)", path: pointer)
    }

    /// A field whose type is right but whose value is not: `ops/0/type: unknown op type "upsert" ...`.
    static func invalid(_ pointer: String, _ message: String) -> SyncServerError {
        SyncServerError(.badRequest, "\(readable(pointer)): \(message)", path: pointer)
    }

    /// The pointer as people read it in a message: `ops/3/timestamp`, or `body` for the root.
    static func readable(_ pointer: String) -> String {
        pointer.isEmpty ? "body" : String(pointer.dropFirst())
    }
}
