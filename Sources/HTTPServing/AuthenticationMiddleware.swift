import Hummingbird

/// Authenticates every request of the routes it wraps before their handlers run (before their
/// bodies are read, before any store is asked), and puts the identity found on the context:
/// a handler reads `context.identity` and never sees a request its authenticator refused.
///
/// ```swift
/// let devices = RouteCollection(context: ServerRequestContext<Caller>.self)
///     .add(middleware: AuthenticationMiddleware(TokenAuthenticator(verifier)))
/// devices.post("/v1/devices") { request, context in ... context.identity! ... }
/// ```
public struct AuthenticationMiddleware<Authenticator: RequestAuthenticator>: RouterMiddleware {
    public typealias Context = Authenticator.Context
    let authenticator: Authenticator

    public init(_ authenticator: Authenticator) {
        self.authenticator = authenticator
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.identity = try await authenticator.authenticate(request, context: context)
        return try await next(request, context)
    }
}
