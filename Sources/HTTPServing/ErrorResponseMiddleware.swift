import Hummingbird

/// Makes every error below it an answer in the server's one error shape: a ``JSONResponseError``
/// renders itself; any other error (Hummingbird's own 404 for a path no route has, a database's
/// failure) is first given to the server's `translate`, which says what it means on the wire.
///
/// Added to the router before the routes (so that it wraps them and the not-found answer), inside
/// ``RequestMetricsMiddleware``, which then counts the status the client gets.
///
/// ```swift
/// router.add(middleware: ErrorResponseMiddleware { error, request in MyRefusal(error) })
/// ```
public struct ErrorResponseMiddleware<Context: RequestContext>: RouterMiddleware {
    let translate: @Sendable (any Error, Request) -> any JSONResponseError

    public init(translate: @escaping @Sendable (any Error, Request) -> any JSONResponseError) {
        self.translate = translate
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any JSONResponseError {
            return try error.response(from: request, context: context)
        } catch {
            return try translate(error, request).response(from: request, context: context)
        }
    }
}
