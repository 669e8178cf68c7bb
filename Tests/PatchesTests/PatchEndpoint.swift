import Foundation
import HostTesting
import Hummingbird
import SystemIO

/// An HTTP patch endpoint on 127.0.0.1 for `patch.check`: answers 204 until a test gives it a
/// patch file to serve, and remembers the headers of the last request.
final class PatchEndpoint: @unchecked Sendable {
    private struct State {
        var served: (status: Int, body: String)?
        var lastHeaders: [String: String] = [:]
    }

    private let state = Locked(State())
    private var server: LocalHTTPServer?

    var port: Int { server?.port ?? 0 }

    var url: String { "http://127.0.0.1:\(port)/patches/latest" }

    func serve(status: Int = 200, _ body: String) { state.withLock { $0.served = (status, body) } }
    var headers: [String: String] { state.value.lastHeaders }

    func start() async throws {
        let router = Router()
        router.get("/patches/latest") { [self] request, _ -> Response in
            let headers = Dictionary(request.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { $1 })
            let answer = state.withLock { state -> (Int, String)? in
                state.lastHeaders = headers
                return state.served
            }
            guard let (status, body) = answer else { return Response(status: .noContent) }
            return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        server = try await LocalHTTPServer.start(router: router, label: "patch-endpoint")
    }

    func stop() async { await server?.stop() }
}
