import HostTesting
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The load generator's HTTP/1.1 client to one server: keep-alive connections on NIO's event loops,
/// as many as the requests in flight need (a held pull keeps one busy for as long as it is held),
/// each reused once answered. No per-host limit: a thousand long-polls are a thousand connections,
/// which cost the generator a socket and a few buffers each, not a thread.
///
/// ```swift
/// let client = LoadHTTPClient(host: "127.0.0.1", port: port, group: group)
/// try await client.prewarm(1_000)   // 200 connects at a time: the server's listen backlog is 256
/// let answer = try await client.request(.GET, "/v1/health")
/// ```
final class LoadHTTPClient: Sendable {
    let host: String
    let port: Int
    private let group: any EventLoopGroup
    private let idle = Mutex<[any Channel]>([])
    private let connects = Atomic<Int>(0)

    init(host: String, port: Int, group: any EventLoopGroup) {
        self.host = host
        self.port = port
        self.group = group
    }

    /// Connections opened so far (reused ones count once).
    var connectionsOpened: Int { connects.load(ordering: .relaxed) }

    /// Opens `count` connections and leaves them idle for the requests to come, `batch` at a time,
    /// each batch accepted before the next is dialled: Hummingbird listens with a backlog of 256, and
    /// a connect past a full accept queue is dropped and retried by the kernel a second later.
    func prewarm(_ count: Int, batch: Int = 200) async throws {
        var left = count
        while left > 0 {
            let now = min(batch, left)
            let channels = try await withThrowingTaskGroup(of: (any Channel).self) { group in
                for _ in 0..<now { group.addTask { try await self.connect() } }
                var channels: [any Channel] = []
                for try await channel in group { channels.append(channel) }
                return channels
            }
            idle.withLock { $0.append(contentsOf: channels) }
            left -= now
        }
    }

    /// Sends one request and returns its answer. A reused connection the server has closed meanwhile
    /// is retried once on a new one (pushes are idempotent by packet id, pulls by cursor).
    func request(_ method: HTTPMethod, _ uri: String, token: String? = nil, body: [UInt8]? = nil,
                 timeout: TimeAmount = .seconds(90)) async throws -> LoadResponse {
        if let channel = idle.withLock({ $0.popLast() }) {
            if let answer = try? await send(method, uri, token: token, body: body, timeout: timeout, on: channel) { return answer }
        }
        return try await send(method, uri, token: token, body: body, timeout: timeout, on: try await connect())
    }

    /// The server's `GET /v1/metrics`, parsed; nil when it does not answer 200 in the text format.
    func metrics(token: String? = nil) async -> MetricsText? {
        guard let answer = try? await request(.GET, "/v1/metrics", token: token, timeout: .seconds(10)), answer.status == 200 else { return nil }
        return try? MetricsText(String(buffer: answer.body))
    }

    /// Closes every idle connection.
    func close() {
        for channel in idle.withLock({ channels in defer { channels.removeAll() }; return channels }) { channel.close(promise: nil) }
    }

    private func connect() async throws -> any Channel {
        let channel = try await ClientBootstrap(group: group)
            .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(30))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(LoadConnectionHandler())
                }
            }
            .connect(host: host, port: port).get()
        connects.add(1, ordering: .relaxed)
        return channel
    }

    private func send(_ method: HTTPMethod, _ uri: String, token: String?, body: [UInt8]?, timeout: TimeAmount,
                      on channel: any Channel) async throws -> LoadResponse {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: uri)
        head.headers.add(name: "Host", value: "\(host):\(port)")
        if let token { head.headers.add(name: "Authorization", value: "Bearer " + token) }
        if let body {
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(body.count))
        }
        let answer = channel.eventLoop.makePromise(of: LoadResponse.self)
        // A timeout closes the connection, which fails the answer (LoadConnectionHandler.channelInactive).
        let timer = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        answer.futureResult.whenComplete { _ in timer.cancel() }
        channel.writeAndFlush(LoadRequest(head: head, body: body.map { ByteBuffer(bytes: $0) }, answer: answer)).whenFailure { error in
            // Written to a closed channel: the handler never saw it. A promise completes once; a later
            // completion is ignored.
            answer.fail(error)
        }
        let response = try await answer.futureResult.get()
        if channel.isActive { idle.withLock { $0.append(channel) } }
        return response
    }
}
