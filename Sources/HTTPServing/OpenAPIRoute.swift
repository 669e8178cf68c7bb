import Hummingbird

/// The route that serves a server's OpenAPI document as it was embedded at build time: `GET path`
/// → 200 with the document, as JSON.
///
/// ```swift
/// router.addRoutes(OpenAPIRoute(document: OpenAPIDocument.sources[0].source).routes(at: "/v1/openapi.json", context: Context.self))
/// ```
public struct OpenAPIRoute: Sendable {
    let body: ByteBuffer

    public init(document: String) {
        body = ByteBuffer(string: document)
    }

    public func routes<Context: RequestContext>(at path: RouterPath, context: Context.Type) -> RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        let body = body
        routes.get(path) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: body))
        }
        return routes
    }
}
