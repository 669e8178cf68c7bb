// The HTTPServing module: what every HTTP server of the product shares, in Hummingbird 2's own
// shapes: a request context with typed fields (the caller's identity, the time a request waited),
// errors that render their own JSON body (`JSONResponseError`), the middleware that turns any other
// error into one, authentication that puts a typed identity on the context, per-route metrics
// labelled by the route's path, answers compressed as the request's `Accept-Encoding` asks, and
// the route serving an OpenAPI document. The sync server is the first server on it; the patch
// server is the second.
// It must never know a server's own rules: no sync tables, no stores, no JavaScript. What an error
// means, who a token is and what a metric is called are the server's to say.
import Hummingbird
import JSON

extension Response {
    /// A response whose body is `body` written as JSON (`Content-Type: application/json;
    /// charset=utf-8`), with `headers` besides.
    ///
    /// ```swift
    /// return Response.json(.created, ["deviceId": "d1"])
    /// ```
    public static func json(_ status: HTTPResponse.Status, _ body: JSONValue, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONWriter.bytes(body))))
    }
}
