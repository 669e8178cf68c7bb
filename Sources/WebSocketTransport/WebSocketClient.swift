import Crypto
import JSON
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOTLS
import NIOSSL
import NIOWebSocket

/// Opens client WebSockets (RFC 6455) over SwiftNIO: TCP, TLS for `wss`, the HTTP/1.1 opening
/// handshake with the subprotocols offered, then frames. One event loop group for the process.
public enum WebSocketClient {
    /// Where a WebSocket goes: the parts of a `ws:` or `wss:` URL a connection needs.
    public struct Target: Sendable {
        public let secure: Bool
        public let host: String
        public let port: Int
        /// The request target: path and query, "/" at least.
        public let resource: String

        public init(secure: Bool, host: String, port: Int, resource: String) {
            self.secure = secure
            self.host = host
            self.port = port
            self.resource = resource.isEmpty ? "/" : resource
        }

        /// Whether the host is an IPv4 or IPv6 address rather than a name.
        var isAddress: Bool {
            (try? SocketAddress(ipAddress: host, port: port)) != nil
        }

        /// The Host header: the port only when it is not the scheme's own.
        var hostHeader: String {
            let name = host.contains(":") ? "[\(host)]" : host
            return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
        }
    }

    /// The largest message accepted, by default; a larger one closes the connection with 1009.
    public static let defaultMaximumMessageBytes = 64 << 20

    /// Connects, runs the opening handshake offering `protocols`, and answers the open connection.
    /// `headers` go on the handshake request (cookies, authorization). The server must choose one
    /// of `protocols` or none when none were offered, else the handshake fails. For `wss`, the
    /// server's certificate is verified against the system's CAs, or `caFile`'s (PEM) when given,
    /// and when `pins` are given (curl's `sha256//BASE64` of a SubjectPublicKeyInfo) its key must be
    /// one of them before anything is sent.
    public static func connect(to target: Target, protocols: [String], headers: [(String, String)] = [],
                               timeoutMs: Int, maximumMessageBytes: Int = defaultMaximumMessageBytes,
                               caFile: String? = nil, pins: [String] = []) async throws(WebSocketError) -> WebSocketConnection {
        let group = MultiThreadedEventLoopGroup.singleton
        let sslContext: NIOSSLContext?
        do {
            var tls = TLSConfiguration.makeClientConfiguration()
            if let caFile { tls.trustRoots = .file(caFile) }
            sslContext = target.secure ? try NIOSSLContext(configuration: tls) : nil
        } catch {
            throw WebSocketError(.tls, "TLS could not be set up: \(error)")
        }
        let opened = group.next().makePromise(of: WebSocketConnection.self)
        var requestHeaders = HTTPHeaders([("Host", target.hostHeader)])
        for (name, value) in headers { requestHeaders.add(name: name, value: value) }
        if !protocols.isEmpty { requestHeaders.add(name: "Sec-WebSocket-Protocol", value: protocols.joined(separator: ", ")) }
        let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.resource, headers: requestHeaders)
        let offered = Set(protocols)
        let maximumFrame = min(maximumMessageBytes, Int(UInt32.max))

        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.milliseconds(Int64(max(timeoutMs, 1))))
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                let initial = HandshakeRequestHandler(request: request, opened: opened, secure: target.secure, pins: pins)
                let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: maximumFrame, automaticErrorHandling: true) { channel, response in
                    let chosen = response.headers["Sec-WebSocket-Protocol"].first.map(trimmed) ?? ""
                    guard chosen.isEmpty || offered.contains(chosen) else {
                        opened.fail(WebSocketError(.handshake, "the server chose the subprotocol \"\(chosen)\", which was not offered"))
                        return channel.close()
                    }
                    let connection = WebSocketConnection(channel: channel, subprotocol: chosen)
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16,
                                                        maxAccumulatedFrameSize: maximumMessageBytes))
                        try channel.pipeline.syncOperations.addHandler(FrameHandler(connection: connection))
                    }.map {
                        // Answered on the loop's next turn, once the upgrade handler has replayed
                        // what arrived meanwhile and left: a frame sent before would meet it.
                        channel.eventLoop.execute { opened.succeed(connection) }
                    }
                }
                let upgrade: NIOHTTPClientUpgradeSendableConfiguration = (upgraders: [upgrader], completionHandler: { context in
                    context.pipeline.removeHandler(initial, promise: nil)
                })
                return channel.eventLoop.makeCompletedFuture {
                    if let sslContext {
                        // An address is no name to send (SNI); the certificate is then checked
                        // against the address connected to.
                        let handler = try NIOSSLClientHandler(context: sslContext, serverHostname: target.isAddress ? nil : target.host)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }.flatMap {
                    // Frames that came in the same read as the 101 go on to the WebSocket decoder.
                    channel.pipeline.addHTTPClientHandlers(leftOverBytesStrategy: .forwardBytes, withClientUpgrade: upgrade)
                }.flatMap {
                    channel.pipeline.addHandler(initial)
                }
            }

        let channel: Channel
        do {
            channel = try await bootstrap.connect(host: target.host, port: target.port).get()
        } catch {
            opened.fail(error)
            throw classify(error, target: target)
        }
        // Fails the open unless it has succeeded (a promise keeps its first result); the channel is
        // closed below by whoever sees the failure, never under a connection already handed over.
        let deadline = channel.eventLoop.scheduleTask(in: .milliseconds(Int64(max(timeoutMs, 1)))) {
            opened.fail(WebSocketError(.timeout, "the opening handshake took longer than \(timeoutMs) ms"))
        }
        channel.closeFuture.whenComplete { _ in
            opened.fail(WebSocketError(.handshake, "the server closed the connection during the opening handshake"))
        }
        do {
            let connection = try await opened.futureResult.get()
            deadline.cancel()
            return connection
        } catch let error as WebSocketError {
            channel.close(promise: nil)
            throw error
        } catch {
            channel.close(promise: nil)
            throw classify(error, target: target)
        }
    }

    /// `text` without the spaces and tabs HTTP allows around a header's value.
    static func trimmed(_ text: String) -> String {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }

    static func classify(_ error: Error, target: Target) -> WebSocketError {
        let place = "\(target.host):\(target.port)"
        switch error {
        case let error as WebSocketError:
            return error
        case is NIOSSLError, is BoringSSLError:
            return WebSocketError(.tls, "TLS with \(place) failed: \(error)")
        case let error as NIOConnectionError:
            if error.dnsAAAAError != nil || error.dnsAError != nil, error.connectionErrors.isEmpty {
                return WebSocketError(.dns, "\(target.host) could not be resolved")
            }
            return WebSocketError(.connect, "could not connect to \(place): \(error.connectionErrors.first.map { "\($0.error)" } ?? "\(error)")")
        case is ChannelError:
            if case ChannelError.connectTimeout = error { return WebSocketError(.timeout, "connecting to \(place) timed out") }
            return WebSocketError(.connect, "could not connect to \(place): \(error)")
        case let error as NIOHTTPClientUpgradeError:
            return WebSocketError(.handshake, "the server at \(place) did not switch to WebSocket (\(error))")
        default:
            return WebSocketError(.connect, "the WebSocket to \(place) failed: \(error)")
        }
    }
}

/// Sends the opening handshake's GET when the connection is up, and fails the open when an answer
/// comes back that is not the switch (the upgrade handler passes it on): a 200, a 403, a 404.
private final class HandshakeRequestHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let request: HTTPRequestHead
    private let opened: EventLoopPromise<WebSocketConnection>
    /// Over TLS the request waits for the TLS handshake, to check `pins` first.
    private let secure: Bool
    private let pins: [String]

    init(request: HTTPRequestHead, opened: EventLoopPromise<WebSocketConnection>, secure: Bool, pins: [String]) {
        self.request = request
        self.opened = opened
        self.secure = secure
        self.pins = pins
    }

    func channelActive(context: ChannelHandlerContext) {
        if !secure { sendRequest(context: context) }
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            if pins.isEmpty || pinned(context.channel) {
                sendRequest(context: context)
            } else {
                opened.fail(WebSocketError(.tls, "the server's public key matches none of the pins app.json gives its host"))
                context.close(promise: nil)
                return
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func sendRequest(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(request)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Whether the peer's leaf certificate's SubjectPublicKeyInfo hashes to one of the pins.
    private func pinned(_ channel: Channel) -> Bool {
        guard let leaf = try? channel.pipeline.syncOperations.nioSSL_peerCertificate(),
              let spki = try? leaf.extractPublicKey().toSPKIBytes() else { return false }
        let pin = "sha256//" + Base64.encode(Array(SHA256.hash(data: spki)))
        return pins.contains(pin)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            opened.fail(WebSocketError(.handshake, "the server answered the WebSocket handshake with HTTP \(head.status.code) instead of 101"))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        opened.fail(error)
        context.close(promise: nil)
    }
}

/// Hands whole messages and control frames to the connection, and tells it when the socket ends.
/// The messages of one read go over together once the read is done (`channelReadComplete`), or
/// before anything that ends the connection, so that they keep their order.
private final class FrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame

    private let connection: WebSocketConnection
    private var arrived: [WebSocketEvent] = []
    private var arrivedBytes = 0

    init(connection: WebSocketConnection) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let (event, bytes) = connection.received(unwrapInboundIn(data), context: context) {
            arrived.append(event)
            arrivedBytes += bytes
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        deliverArrived()
        context.fireChannelReadComplete()
    }

    private func deliverArrived() {
        guard !arrived.isEmpty else { return }
        let events = arrived, bytes = arrivedBytes
        arrived = []
        arrivedBytes = 0
        connection.deliver(events, bytes: bytes)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        deliverArrived()
        if let error = error as? NIOWebSocketError {
            // The protocol error handler has sent its close frame; the aggregator's limits say
            // what was too large.
            connection.failed("a protocol error: \(error)")
        } else {
            connection.failed("\(error)")
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deliverArrived()
        connection.ended()
        context.fireChannelInactive()
    }
}
