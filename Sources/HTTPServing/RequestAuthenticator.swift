import Hummingbird

/// Who a request speaks for, as one server decides it (a verified JSON Web Token, a device
/// token looked up in its store): the ``AuthenticationMiddleware``'s one question.
///
/// It throws the server's refusal (a ``JSONResponseError``, usually 401 or 429) when the request
/// may not go on; nothing past the middleware runs then.
public protocol RequestAuthenticator<Context>: Sendable {
    associatedtype Context: AuthenticatedRequestContext
    func authenticate(_ request: Request, context: Context) async throws -> Context.Identity
}
