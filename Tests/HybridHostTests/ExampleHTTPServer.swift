import Foundation
import Hummingbird
import HostTesting
import SystemIO

/// The HTTP server the READMEs' examples talk to as `http://127.0.0.1:8080`: a to-do resource, a
/// file to download and a patch endpoint with nothing newer. Its routes are listed in
/// ARCHITECTURE.md ("Examples that run"); an example that needs another one adds it here.
enum ExampleHTTPServer {
    /// `clip.bin`'s size: a few pieces, so a download reports progress.
    static let clipSize = 256 * 1024

    static func start() async throws -> LocalHTTPServer {
        let router = Router()
        // POST /todos {title}: 201 with the new to-do, as a REST API creates a resource.
        router.post("/todos") { request, context -> Response in
            let todo = try await request.decode(as: Todo.self, context: context)
            return try json(Todo(id: 7, title: todo.title), status: .created)
        }
        // GET /todos/7: the to-do, fresh for a minute (what `cache: true` keeps).
        router.get("/todos/:id") { _, context -> Response in
            let id = context.parameters.get("id", as: Int.self) ?? 0
            return try json(Todo(id: id, title: "milk"), headers: [.cacheControl: "max-age=60"])
        }
        // PUT /todos/7 with any body: the body back, as it came.
        router.put("/todos/:id") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .init(byteBuffer: body))
        }
        router.get("/clip.bin") { _, _ -> Response in
            let bytes = (0..<clipSize).map { UInt8(truncatingIfNeeded: $0) }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"],
                            body: ResponseBody(contentLength: clipSize) { writer in
                                for start in stride(from: 0, to: clipSize, by: 64 * 1024) {
                                    try await writer.write(ByteBuffer(bytes: bytes[start..<min(clipSize, start + 64 * 1024)]))
                                }
                                try await writer.finish(nil)
                            })
        }
        // GET /busy/ID: 503 with Retry-After: 0 the first time for each ID, then 200 "done".
        let busy = Locked<Set<String>>([])
        router.get("/busy/:id") { _, context -> Response in
            let id = context.parameters.get("id") ?? ""
            let first = busy.withLock { $0.insert(id).inserted }
            return first ? Response(status: .serviceUnavailable, headers: [.retryAfter: "0"])
                         : Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "done")))
        }
        // A patch endpoint that has nothing newer for anyone.
        router.get("/patches/latest") { _, _ in Response(status: .noContent) }
        return try await LocalHTTPServer.start(router: router, label: "documentation-examples")
    }

    private struct Todo: Codable {
        var id: Int?
        var title: String
    }

    private static func json(_ todo: Todo, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = try encoder.encode(todo)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: Array(body))))
    }
}
