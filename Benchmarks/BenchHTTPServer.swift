import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The server `hybrid bench network` measures against: Hummingbird on 127.0.0.1, an ephemeral
/// port, one small answer per URL. Ours and curl's requests go to the same server in the same run.
final class BenchHTTPServer: @unchecked Sendable {
    private(set) var port = 0
    private var task: Task<Void, any Error>?
    private var group: ServiceGroup?

    /// Starts the server and waits until it listens.
    func start() {
        let router = Router()
        router.get("/small") { request, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok \(request.uri.query ?? "")")))
        }
        var logger = Logger(label: "bench-http-server")
        logger.logLevel = .critical
        let listening = DispatchSemaphore(value: 0)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { [self] channel in
                                  port = channel.localAddress?.port ?? 0
                                  listening.signal()
                              }, logger: logger)
        // Stopped by a graceful shutdown, not by cancelling: cancelling traps in NIO when a
        // connection was accepted but not yet served (apple/swift-nio#3481).
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        self.group = group
        task = Task { try await group.run() }
        listening.wait()
    }

    func stop() {
        let done = DispatchSemaphore(value: 0)
        Task { [group, task] in
            await group?.triggerGracefulShutdown()
            _ = await task?.result
            done.signal()
        }
        done.wait()
    }
}
