import Foundation
import HostTesting
import Hummingbird
import SystemIO

/// A real HTTP server on 127.0.0.1 and an ephemeral port, started by a test: Hummingbird 2 with
/// the routes the network tests need, counting the hits each route takes.
final class TestHTTPServer: Sendable {
    let hits: HitCounter
    private let server: LocalHTTPServer

    var port: Int { server.port }
    var base: String { server.base }

    private init(server: LocalHTTPServer, hits: HitCounter) {
        self.server = server
        self.hits = hits
    }

    static func start() async throws -> TestHTTPServer {
        let hits = HitCounter()
        let router = Router()
        addRoutes(to: router, hits: hits)
        return TestHTTPServer(server: try await LocalHTTPServer.start(router: router, label: "network-tests"), hits: hits)
    }

    func stop() async { await server.stop() }

    private static func addRoutes(to router: Router<BasicRequestContext>, hits: HitCounter) {
        // Answers with what it received: method, headers and body, as JSON; the body also goes back
        // raw with ?raw=1 (binary round trips).
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete, .options] {
            router.on("/echo", method: method) { request, context -> Response in
                hits.add("echo")
                let body = try await request.body.collect(upTo: 16 << 20)
                let bytes = Array(body.readableBytesView)
                if request.uri.queryParameters.get("raw") != nil {
                    var headers = HTTPFields()
                    headers[.contentType] = request.headers[.contentType] ?? "application/octet-stream"
                    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
                }
                var seen: [String: String] = [:]
                for field in request.headers { seen[field.name.canonicalName] = field.value }
                let object: [String: Any] = ["method": request.method.rawValue, "headers": seen,
                                             "body": String(decoding: bytes, as: UTF8.self), "size": bytes.count]
                return json(object)
            }
        }
        router.head("/echo") { _, _ in hits.add("echo"); return Response(status: .ok, headers: [.contentLength: "5"]) }
        router.get("/status/:code") { request, context -> Response in
            let code = context.parameters.get("code", as: Int.self) ?? 500
            return Response(status: .init(code: code), headers: [.contentType: "text/plain"],
                            body: .init(byteBuffer: ByteBuffer(string: "status \(code)")))
        }
        router.get("/redirect") { request, _ -> Response in
            hits.add("redirect")
            if let name = request.uri.queryParameters.get("name") { hits.add("redirect/" + name) }
            let target = request.uri.queryParameters.get("to") ?? "/echo"
            let code = request.uri.queryParameters.get("code", as: Int.self) ?? 302
            return Response(status: .init(code: code), headers: [.location: target])
        }
        router.post("/redirect") { request, _ -> Response in
            let target = request.uri.queryParameters.get("to") ?? "/echo"
            let code = request.uri.queryParameters.get("code", as: Int.self) ?? 302
            return Response(status: .init(code: code), headers: [.location: target])
        }
        router.get("/chain/:n") { _, context -> Response in
            let n = context.parameters.get("n", as: Int.self) ?? 0
            if n <= 0 { return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "end"))) }
            return Response(status: .found, headers: [.location: "/chain/\(n - 1)"])
        }
        // Counts, then waits ?ms= before answering: identical GETs in flight overlap here.
        router.get("/count/:name") { request, context -> Response in
            let name = context.parameters.get("name") ?? ""
            let n = hits.add("count/" + name)
            let ms = request.uri.queryParameters.get("ms", as: Int.self) ?? 0
            if ms > 0 { try await Task.sleep(for: .milliseconds(ms)) }
            return json(["name": name, "hit": n])
        }
        router.get("/slow") { request, _ -> Response in
            let ms = request.uri.queryParameters.get("ms", as: Int.self) ?? 1000
            try await Task.sleep(for: .milliseconds(ms))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "slow")))
        }
        // A cacheable resource with a validator: ?maxAge= sets its freshness; If-None-Match "v1" is a 304.
        router.get("/cached/:name") { request, context -> Response in
            let name = context.parameters.get("name") ?? ""
            let maxAge = request.uri.queryParameters.get("maxAge", as: Int.self) ?? 60
            var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "max-age=\(maxAge)", .eTag: "\"v1\""]
            if request.headers[.ifNoneMatch] == "\"v1\"" {
                hits.add("cached/\(name)/304")
                headers[.contentType] = nil
                return Response(status: .notModified, headers: headers)
            }
            let n = hits.add("cached/\(name)/200")
            return json(["name": name, "served": n], headers: headers)
        }
        router.get("/nostore") { _, _ -> Response in
            let n = hits.add("nostore")
            return json(["served": n], headers: [.contentType: "application/json", .cacheControl: "no-store"])
        }
        // ?n= bytes in ?chunks= pieces, ?chunkMs= apart, with a Content-Length: progress to watch.
        router.get("/bytes") { request, _ -> Response in
            let n = request.uri.queryParameters.get("n", as: Int.self) ?? 1024
            let chunks = max(1, request.uri.queryParameters.get("chunks", as: Int.self) ?? 1)
            let pause = request.uri.queryParameters.get("chunkMs", as: Int.self) ?? 0
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let size = (n + chunks - 1) / chunks
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"],
                            body: ResponseBody(contentLength: n) { writer in
                                var offset = 0
                                while offset < n {
                                    let end = min(n, offset + size)
                                    try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
                                    offset = end
                                    if pause > 0, offset < n { try await Task.sleep(for: .milliseconds(pause)) }
                                }
                                try await writer.finish(nil)
                            })
        }
        // Fails its first ?fail= hits (per name) with ?status= (503), and ?retryAfter= seconds when
        // given; then answers "ok". Every method, so that POSTs with an Idempotency-Key can retry.
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/flaky/:name", method: method) { request, context -> Response in
                let name = context.parameters.get("name") ?? ""
                let failures = request.uri.queryParameters.get("fail", as: Int.self) ?? 1
                let n = hits.add("flaky/\(name)")
                guard n > failures else {
                    var headers: HTTPFields = [.contentType: "text/plain"]
                    if let after = request.uri.queryParameters.get("retryAfter") { headers[.retryAfter] = String(after) }
                    let status = request.uri.queryParameters.get("status", as: Int.self) ?? 503
                    return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: "failure \(n)")))
                }
                return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok after \(n - 1)")))
            }
        }
        // A text compressed with /encoded/gzip, br or zstd (the command-line tools), sent with
        // that Content-Encoding whatever the request's Accept-Encoding.
        router.get("/encoded/:encoding") { _, context -> Response in
            let encoding = context.parameters.get("encoding") ?? ""
            let tools = ["gzip": ("gzip", ["-c"]), "br": ("brotli", ["-c"]), "zstd": ("zstd", ["-c", "-q"])]
            guard let (tool, arguments) = tools[encoding] else { return Response(status: .notFound) }
            let compressed = try ChildProcess.run(tool, arguments, input: Array(Self.encodedText.utf8)).output
            return Response(status: .ok, headers: [.contentType: "text/plain", .contentEncoding: encoding],
                            body: .init(byteBuffer: ByteBuffer(bytes: compressed)))
        }
        // ?total= (45) numbered items, a page at a time: ?page=&pageSize=, ?offset=&limit=, or
        // ?cursor=cN (from item N); {items, next} where next is the cursor after them or null.
        router.get("/items") { request, _ -> Response in
            let query = request.uri.queryParameters
            let total = query.get("total", as: Int.self) ?? 45
            var start = 0, count = 10
            if let page = query.get("page", as: Int.self) {
                count = query.get("pageSize", as: Int.self) ?? 10
                start = (page - 1) * count
            } else if let offset = query.get("offset", as: Int.self) {
                (start, count) = (offset, query.get("limit", as: Int.self) ?? 10)
            } else if let cursor = query.get("cursor"), cursor.hasPrefix("c"), let from = Int(cursor.dropFirst()) {
                start = from
            }
            let items = Array(max(0, start)..<max(0, min(total, start + count)))
            let next: Any = start + count < total ? "c\(start + count)" : NSNull()
            return json(["items": items, "next": next, "status": query.get("status") ?? "any"])
        }
        // Server-sent events: `retry: 50`, a "hello" message, then ticks id 1 to ?total= (5), each
        // with two data lines. The first connection (no Last-Event-ID) ends after ?drop= (2)
        // ticks; a reconnection resumes after its Last-Event-ID. Each connection is counted as
        // sse/NAME/last=ID.
        router.get("/sse/:name") { request, context -> Response in
            let name = context.parameters.get("name") ?? ""
            let last = request.headers[.init("Last-Event-ID")!]
            hits.add("sse/\(name)/last=\(last ?? "none")")
            let total = request.uri.queryParameters.get("total", as: Int.self) ?? 5
            let drop = last == nil ? request.uri.queryParameters.get("drop", as: Int.self) ?? 2 : Int.max
            let start = Int(last ?? "0") ?? 0
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                            body: ResponseBody { writer in
                                try await writer.write(ByteBuffer(string: "retry: 50\n: a comment\n\n"))
                                if last == nil { try await writer.write(ByteBuffer(string: "data: hello\r\n\r\n")) }
                                var sent = 0
                                for id in (start + 1)..<max(start + 1, total + 1) {
                                    // The stream ends early; the client reconnects after its retry time.
                                    if sent == drop {
                                        try await writer.finish(nil)
                                        return
                                    }
                                    try await writer.write(ByteBuffer(string: "id: \(id)\nevent: tick\ndata: line \(id)\ndata: second\n\n"))
                                    sent += 1
                                    try await Task.sleep(for: .milliseconds(5))
                                }
                                // Held open: the client closes when it has what it wants.
                                try await Task.sleep(for: .seconds(30))
                                try await writer.finish(nil)
                            })
        }
        // One Set-Cookie header per ?c= value.
        router.get("/set-cookie") { request, _ -> Response in
            var headers: HTTPFields = [.contentType: "text/plain"]
            for cookie in request.uri.queryParameters.getAll("c") { headers.append(.init(name: .setCookie, value: String(cookie))) }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "set")))
        }
        router.get("/small") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok")))
        }
        router.get("/notjson") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "<html>")))
        }
    }

    /// What `/encoded/...` compresses.
    static let encodedText = String(repeating: "HybridHost decodes what libcurl can: gzip, brotli, zstd. ", count: 200)

    private static func json(_ object: [String: Any], headers: HTTPFields = [.contentType: "application/json"]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: Array(data))))
    }
}
