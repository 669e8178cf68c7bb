import Foundation
import HostTesting
import Hummingbird
import SystemIO

/// A server that takes requests as a real API with idempotency keys does: `POST /inbox/QUEUE`
/// applies a request the first time its `Idempotency-Key` arrives and answers a replay (the same
/// key again) with the first answer, applying nothing; `POST /reject` answers 422. It records
/// every arrival in order, so a test can tell what was applied, in which order, and what came twice.
final class InboxServer: Sendable {
    struct Arrival: Sendable {
        let queue: String
        let key: String
        let body: String
        /// The key came before: a replay, not applied again.
        let replay: Bool
    }

    private let arrivals = Locked<[Arrival]>([])
    private let server: Locked<LocalHTTPServer?> = Locked(nil)
    /// Fixed once the server first listens: where it comes back after `stop`.
    let port: Int

    var base: String { "http://127.0.0.1:\(port)" }

    private init(port: Int) { self.port = port }

    /// A server whose port is chosen, then stopped: clients enqueue while it is down.
    static func down() async throws -> InboxServer {
        let probe = try await LocalHTTPServer.start(router: Router(), label: "inbox-probe")
        let port = probe.port
        await probe.stop()
        return InboxServer(port: port)
    }

    func start() async throws {
        let router = Router()
        router.post("/inbox/:queue") { [self] request, context -> Response in
            let queue = context.parameters.get("queue") ?? ""
            let key = request.headers[.init("Idempotency-Key")!] ?? ""
            let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
            let replay = arrivals.withLock { arrivals in
                let seen = arrivals.contains { $0.key == key }
                arrivals.append(Arrival(queue: queue, key: key, body: body, replay: seen))
                return seen
            }
            return Response(status: replay ? .ok : .created, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"applied":\#(!replay),"echo":\#(body.isEmpty ? "null" : body)}"#)))
        }
        router.post("/reject") { [self] request, _ -> Response in
            let key = request.headers[.init("Idempotency-Key")!] ?? ""
            arrivals.withLock { $0.append(Arrival(queue: "reject", key: key, body: "", replay: false)) }
            return Response(status: .unprocessableContent, headers: [.contentType: "application/json", .init("X-Reason")!: "closed"],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"error":"order closed"}"#)))
        }
        let started = try await LocalHTTPServer.start(router: router, label: "inbox", port: port)
        server.withLock { $0 = started }
    }

    func stop() async {
        if let running = server.withLock({ server -> LocalHTTPServer? in defer { server = nil }; return server }) { await running.stop() }
    }

    var all: [Arrival] { arrivals.read { $0 } }

    /// What was applied (first arrivals of each key), by queue, in order.
    func applied(_ queue: String) -> [String] { all.filter { $0.queue == queue && !$0.replay }.map(\.body) }
}
