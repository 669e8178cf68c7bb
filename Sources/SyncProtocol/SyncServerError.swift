import JSON

/// Why the sync server refused a request: a stable code, a message that says what was expected and
/// where, and the JSON Pointer of the offending field when there is one. The server throws it and
/// encodes it (``json``); a client decodes it (``decode(_:)``) from the same definition.
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

    /// A finer reason than ``Code`` that a client may branch on.
    public enum Reason: String, Sendable, CaseIterable {
        // A token's, for 401 (SyncAuth's `TokenError.Reason`, one for one).
        case missing, malformed, algorithm, signature, expired, notYetValid, claims, key
        /// An op, a batch or a snapshot part outside the token's scopes (403; 409 for a held packet
        /// settled later, with ``SyncServerError/opId``).
        case scope
        /// The user has as many devices as the server allows (429 on registration).
        case devices
        // The database's disk failed (500): nothing was applied; send the request again once the
        // operator has made room.
        case diskFull = "disk_full"
        case io
        case readOnly = "read_only"
    }

    public let code: Code
    public let message: String
    /// An RFC 6901 pointer into the request body or query (`/ops/3/timestamp`), when one field is
    /// at fault.
    public let path: String?
    public let reason: Reason?
    /// The op of a pushed packet that was refused (for reason `scope`), so that the client fails
    /// that op alone.
    public var opId: String?
    /// For ``Code/rateLimited``: whole seconds until the device's next request is let through
    /// (the `Retry-After` header, not the body).
    public var retryAfter: Int?

    public init(_ code: Code, _ message: String, path: String? = nil, reason: Reason? = nil) {
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

    /// Whether an answer of `status` says the server is away for now, so that the same request may
    /// be sent again later: 429, the server's 500, and any other 5xx (a proxy's 502 to 504).
    public static func isTransient(status: Int) -> Bool {
        status >= 500 || status == 429
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// The response body.
    public var json: JSONValue {
        ["error": .object(detail)]
    }

    /// The inner object, which a rejected push carries as its `error` too.
    public var detail: JSONObject {
        var error: JSONObject = ["code": .string(code.rawValue), "message": .string(message)]
        if let path { error["path"] = .string(path) }
        if let reason { error["reason"] = .string(reason.rawValue) }
        if let opId { error["opId"] = .string(opId) }
        return error
    }

    /// Reads an error body (`{"error": {...}}`).
    public static func decode(_ body: JSONValue) throws(SyncWireError) -> SyncServerError {
        let fields = try FieldReader(body, at: "")
        return try decodeDetail(fields.object["error"], at: fields.path("error"))
    }

    /// Reads the inner object at `pointer`. A reason this client does not know reads as none (a
    /// newer server may add some): the code still says what happened.
    public static func decodeDetail(_ value: JSONValue?, at pointer: String) throws(SyncWireError) -> SyncServerError {
        let fields = try FieldReader(value, at: pointer)
        let codeName = try fields.text("code")
        guard let code = Code(rawValue: codeName) else {
            let expected = Code.allCases.map(\.rawValue).joined(separator: ", ")
            throw SyncWireError.invalid(fields.path("code"), "unknown code \"\(codeName)\", expected one of \(expected)")
        }
        var error = SyncServerError(code, try fields.text("message"), path: try fields.optionalText("path"),
                                    reason: try fields.optionalText("reason").flatMap(Reason.init(rawValue:)))
        error.opId = try fields.optionalText("opId")
        return error
    }

    /// A field of the wrong type, or missing: `ops/3/timestamp: expected number, got string`.
    public static func field(_ pointer: String, expected: String, got value: JSONValue?) -> SyncServerError {
        let wire = SyncWireError.field(pointer, expected: expected, got: value)
        return SyncServerError(.badRequest, wire.message, path: pointer)
    }

    /// A field whose type is right but whose value is not: `ops/0/type: unknown op type "upsert" ...`.
    public static func invalid(_ pointer: String, _ message: String) -> SyncServerError {
        SyncServerError(.badRequest, "\(readable(pointer)): \(message)", path: pointer)
    }

    /// The pointer as people read it in a message: `ops/3/timestamp`, or `body` for the root.
    public static func readable(_ pointer: String) -> String {
        SyncWireError.readable(pointer)
    }
}
