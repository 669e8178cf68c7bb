import Hummingbird
import JSON

/// An error that is its own answer: a status, a JSON body and any headers it calls for
/// (`Retry-After`, `Allow`). A route throws it and Hummingbird, or ``ErrorResponseMiddleware``,
/// renders it; a server gives its error body one such type (the sync server's wraps
/// SyncProtocol's `SyncServerError`, whose encoder writes the body).
///
/// ```swift
/// struct Refusal: JSONResponseError {
///     var status: HTTPResponse.Status { .forbidden }
///     var body: JSONValue { ["error": "not yours"] }
/// }
/// ```
public protocol JSONResponseError: HTTPResponseError {
    /// The response body.
    var body: JSONValue { get }
    /// Headers the answer carries besides `Content-Type`.
    var headers: HTTPFields { get }
}

extension JSONResponseError {
    public var headers: HTTPFields { [:] }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response.json(status, body, headers: headers)
    }
}
