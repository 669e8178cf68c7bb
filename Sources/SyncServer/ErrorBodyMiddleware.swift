import Hummingbird
import SyncProtocol

/// Gives the answers Hummingbird makes itself the API's error body, so that a client (and the
/// OpenAPI document) sees one shape for every refusal: a path the server does not have is 404, a
/// path it has asked with another method 405 with `Allow`, and any other error a framework layer
/// throws keeps its status with `{"error": {...}}`. The endpoints catch their own errors; the
/// answers made here are counted in the metrics under the endpoint `unknown`.
struct ErrorBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: SyncMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            let response = answer(error, to: request)
            metrics.answered("unknown", status: response.status.code, took: ContinuousClock.now - started)
            return response
        }
    }

    func answer(_ error: any HTTPResponseError, to request: Request) -> Response {
        let path = request.uri.path
        if error.status == .notFound {
            let methods = SyncEndpoints.Route.allCases.filter { $0.matches(Substring(path)) }.map(\.method.rawValue)
            guard methods.isEmpty else {
                let refusal = SyncServerError(.methodNotAllowed, "\(request.method.rawValue) \(path): expected \(methods.joined(separator: " or "))")
                return SyncEndpoints.response(refusal, headers: [.allow: methods.joined(separator: ", ")])
            }
            return SyncEndpoints.response(SyncServerError(.notFound, "\(request.method.rawValue) \(path): no such endpoint; GET /v1/openapi.json lists them"))
        }
        let code: SyncServerError.Code = switch error.status.code {
        case 413: .tooLarge
        case 400..<500: .badRequest
        default: .internalError
        }
        return SyncEndpoints.response(SyncServerError(code, "\(request.method.rawValue) \(path): \(error.status.reasonPhrase)"))
    }
}
