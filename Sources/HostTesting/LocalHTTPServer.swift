// The LocalHTTPServer module: test and benchmark support. A real HTTP server on loopback for the
// code under test to talk to; never part of an app run.
import Hummingbird
import Logging
import ServiceLifecycle

/// A Hummingbird server on 127.0.0.1 and an ephemeral port, serving a router a test or benchmark
/// builds.
///
/// Stopped by a graceful shutdown of its service group, never by cancelling its task: cancelling
/// traps in NIO when a connection was accepted but not yet served (apple/swift-nio#3481).
///
/// ```swift
/// let router = Router()
/// router.get("/small") { _, _ in "ok" }
/// let server = try await LocalHTTPServer.start(router: router, label: "my-test")
/// defer { Task { await server.stop() } }
/// // requests to server.base + "/small"
/// ```
public final class LocalHTTPServer: Sendable {
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    public var base: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Starts serving `router` and returns once the server listens, on `port` (0: one the system
    /// picks; a fixed one brings a stopped server back where its clients look for it).
    public static func start(router: Router<BasicRequestContext>, label: String, port: Int = 0) async throws -> LocalHTTPServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: label)
        logger.logLevel = .critical
        let app = Application(
            router: router,
            // Tests open a thousand connections at once; past Hummingbird's default queue of 256
            // pending connections, a loaded machine that accepts slowly made curl see a reset.
            configuration: .init(address: .hostname("127.0.0.1", port: port), backlog: 4096),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        var bound = 0
        for await listening in ports { bound = listening }
        guard bound > 0 else {
            _ = await task.result
            throw LocalHTTPServerError(message: "\(label): the server stopped before it listened")
        }
        return LocalHTTPServer(port: bound, group: group, task: task)
    }

    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}

/// The server could not start.
public struct LocalHTTPServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
