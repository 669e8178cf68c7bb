import Foundation
import HostTesting
import Hummingbird

/// An HTTP patch endpoint on 127.0.0.1 for `patch.check`: answers 204 until a test gives it a
/// patch file to serve, and remembers the headers of the last request.
final class PatchEndpoint: @unchecked Sendable {
    private let lock = NSLock()
    private var served: (status: Int, body: String)?
    private var lastHeaders: [String: String] = [:]
    private var server: LocalHTTPServer?

    var port: Int { server?.port ?? 0 }

    var url: String { "http://127.0.0.1:\(port)/patches/latest" }

    func serve(status: Int = 200, _ body: String) { lock.withLock { served = (status, body) } }
    var headers: [String: String] { lock.withLock { lastHeaders } }

    func start() async throws {
        let router = Router()
        router.get("/patches/latest") { [self] request, _ -> Response in
            let answer = lock.withLock { () -> (Int, String)? in
                lastHeaders = Dictionary(request.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { $1 })
                return served
            }
            guard let (status, body) = answer else { return Response(status: .noContent) }
            return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        server = try await LocalHTTPServer.start(router: router, label: "patch-endpoint")
    }

    func stop() async { await server?.stop() }
}
