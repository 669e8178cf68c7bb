import GRDB
import HTTPServing
import Hummingbird
import JSON
import SyncProtocol

/// A ``SyncServerError`` as the serving layer answers it: its status, its body written by
/// SyncProtocol's encoder (`{"error": {...}}`), and the header its status calls for
/// (`Retry-After` for 429, `Allow` for 405).
///
/// Routes and stores throw `SyncServerError`, the protocol's type, which knows nothing of HTTP;
/// ``init(translating:request:)`` is the one place any error becomes an answer of this API.
struct SyncRefusal: JSONResponseError {
    let error: SyncServerError
    var extraHeaders: HTTPFields = [:]

    init(_ error: SyncServerError, headers: HTTPFields = [:]) {
        self.error = error
        extraHeaders = headers
    }

    var status: HTTPResponse.Status { HTTPResponse.Status(code: error.status) }
    var body: JSONValue { error.json }

    var headers: HTTPFields {
        var headers = extraHeaders
        if let wait = error.retryAfter { headers[.retryAfter] = String(wait) }
        return headers
    }

    /// Any error a route, a store or Hummingbird throws, as this API says it: a refusal as it is;
    /// a body the wire types could not read as 400 (413 past a limit); Hummingbird's 404 for a path
    /// no route has as 404, or 405 with `Allow` when the path is a route's asked with another
    /// method; any other error as a 500 that says what failed (with the disk's reason when it is
    /// the database's disk), so a client may retry the same request.
    init(translating error: any Error, request: Request) {
        switch error {
        case let error as SyncServerError:
            self.init(error)
        case let error as SyncWireError:
            self.init(SyncServerError(error.tooLarge ? .tooLarge : .badRequest, error.message, path: error.path))
        case let error as any HTTPResponseError:
            self = Self.framework(error, request: request)
        default:
            self.init(SyncServerError(.internalError, "the server failed: \(PostgresSyncStore.describe(error))", reason: Self.storageReason(error)))
        }
    }

    /// The answers Hummingbird makes itself, in the API's error body, so that a client (and the
    /// OpenAPI document) sees one shape for every refusal.
    static func framework(_ error: any HTTPResponseError, request: Request) -> SyncRefusal {
        let path = request.uri.path
        if error.status == .notFound {
            let methods = SyncEndpoints.Route.methods(for: path)
            guard methods.isEmpty else {
                let refusal = SyncServerError(.methodNotAllowed, "\(request.method.rawValue) \(path): expected \(methods.joined(separator: " or "))")
                return SyncRefusal(refusal, headers: [.allow: methods.joined(separator: ", ")])
            }
            return SyncRefusal(SyncServerError(.notFound, "\(request.method.rawValue) \(path): no such endpoint; GET /v1/openapi.json lists them"))
        }
        let code: SyncServerError.Code = switch error.status.code {
        case 413: .tooLarge
        case 400..<500: .badRequest
        default: .internalError
        }
        return SyncRefusal(SyncServerError(code, "\(request.method.rawValue) \(path): \(error.status.reasonPhrase)"))
    }

    /// A failure of the disk under the database, by name (the request may be sent again once the
    /// operator has made room): `disk_full`, `io` or `read_only`; nil for any other error.
    static func storageReason(_ error: any Error) -> SyncServerError.Reason? {
        guard let error = error as? DatabaseError else { return PostgresSyncStore.storageReason(error) }
        switch error.resultCode {
        case .SQLITE_FULL: return .diskFull
        case .SQLITE_IOERR, .SQLITE_CANTOPEN: return .io
        case .SQLITE_READONLY: return .readOnly
        default: return nil
        }
    }
}

extension SyncMetrics {
    /// A 429 from `limit` (a label of ``SyncMetrics/refusals``), counted there, with its `Retry-After`.
    func refusal(by limit: String, _ message: String, retryAfter: Int, path: String? = nil, reason: SyncServerError.Reason? = nil) -> SyncServerError {
        refused(by: limit)
        var refusal = SyncServerError(.rateLimited, message, path: path, reason: reason)
        refusal.retryAfter = retryAfter
        return refusal
    }
}
