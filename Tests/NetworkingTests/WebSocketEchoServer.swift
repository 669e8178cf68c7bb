import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization

/// A WebSocket server on 127.0.0.1 for the tests, on SwiftNIO's server upgrader (what Hummingbird's
/// WebSocket support builds on). By path:
/// - any path: echoes each text and binary message; the text `close:CODE` closes with CODE and
///   reason `bye CODE`, `drop` ends the TCP connection without a close frame, `flood:N` sends N
///   binary messages of 64 KiB and reports how many its writes completed through ``flooded``,
///   `burst:N` and `mixed-burst:N` send N messages written together and flushed once
///   (``burstMessage(_:mixed:)``);
/// - `/close/CODE`: closes with CODE right after the handshake;
/// - `/refuse`: answers 403 instead of switching;
/// - `/wrong-protocol`: chooses a subprotocol that was not offered.
///
/// Of the subprotocols offered it chooses the first that starts with `echo`; it records each
/// handshake's path and offered list in ``handshakes``.
final class WebSocketEchoServer: Sendable {
    let port: Int
    private let channel: Channel
    let handshakes = Mutex<[(path: String, protocols: String)]>([])
    /// `flood:N`'s messages whose writes completed, so far.
    let flooded = Mutex(0)

    var base: String { "ws://127.0.0.1:\(port)" }

    /// The `index`th message of a `burst:N`: text that JSON must escape (quotes, a backslash,
    /// control characters, U+2028, an emoji); in a `mixed-burst:N` every seventh is a binary
    /// message of the index's two bytes. js/tests/web-websocket.test.js makes the same lists.
    static func burstMessage(_ index: Int, mixed: Bool) -> BurstMessage {
        if mixed, index % 7 == 6 { return .binary([UInt8(index & 0xFF), UInt8(index >> 8)]) }
        return .text("\(index) \"q\" \\ \n\t\u{01}\u{2028} 😀")
    }

    enum BurstMessage {
        case text(String)
        case binary([UInt8])
    }

    private init(channel: Channel, port: Int) {
        self.channel = channel
        self.port = port
    }

    /// `tls`: serve wss with this certificate and key (PEM files).
    static func start(tls: (certificate: String, key: String)? = nil) async throws -> WebSocketEchoServer {
        let box = Mutex<WebSocketEchoServer?>(nil)
        let sslContext = try tls.map { tls in
            try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: try NIOSSLCertificate.fromPEMFile(tls.certificate).map { .certificate($0) },
                                                                      privateKey: .privateKey(try NIOSSLPrivateKey(file: tls.key, format: .pem))))
        }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: 1 << 24,
                    shouldUpgrade: { channel, head in
                        let offered = head.headers["Sec-WebSocket-Protocol"].joined(separator: ",")
                        box.withLock { $0?.handshakes.withLock { $0.append((head.uri, offered)) } }
                        if head.uri == "/refuse" { return channel.eventLoop.makeSucceededFuture(nil) }
                        var headers = HTTPHeaders()
                        if head.uri == "/wrong-protocol" {
                            headers.add(name: "Sec-WebSocket-Protocol", value: "never-offered")
                        } else if let chosen = offered.split(separator: ",").map({ $0.trimmingSpaces }).first(where: { $0.hasPrefix("echo") }) {
                            headers.add(name: "Sec-WebSocket-Protocol", value: chosen)
                        }
                        return channel.eventLoop.makeSucceededFuture(headers)
                    },
                    upgradePipelineHandler: { channel, head in
                        channel.eventLoop.makeCompletedFuture {
                            let server = box.withLock { $0 }
                            try channel.pipeline.syncOperations.addHandler(EchoHandler(path: head.uri, flooded: server))
                        }
                    })
                let refusing = RefusingHandler()
                return channel.eventLoop.makeCompletedFuture {
                    if let sslContext { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                            context.pipeline.syncOperations.removeHandler(refusing, promise: nil)
                        }))
                    try channel.pipeline.syncOperations.addHandler(refusing)
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        let server = WebSocketEchoServer(channel: channel, port: channel.localAddress?.port ?? 0)
        box.withLock { $0 = server }
        return server
    }

    func stop() async {
        try? await channel.close()
    }
}

private extension Substring {
    var trimmingSpaces: String { String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed()) }
}

/// What reaches HTTP when the upgrade was refused: a 403.
private final class RefusingHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        let head = HTTPResponseHead(version: .http1_1, status: .forbidden, headers: ["Content-Length": "0", "Connection": "close"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}

private final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let path: String
    private let server: WebSocketEchoServer?
    private var closing = false

    init(path: String, flooded server: WebSocketEchoServer?) {
        self.path = path
        self.server = server
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if path.hasPrefix("/close/"), let code = UInt16(path.dropFirst("/close/".count)) {
            close(context: context, code: code)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            var data = frame.unmaskedData
            let text = data.readString(length: data.readableBytes) ?? ""
            if text.hasPrefix("close:"), let code = UInt16(text.dropFirst(6)) {
                close(context: context, code: code)
            } else if text == "drop" {
                context.close(promise: nil)
            } else if text.hasPrefix("flood:"), let count = Int(text.dropFirst(6)) {
                flood(context: context, remaining: count)
            } else if let colon = text.firstIndex(of: ":"), ["burst", "mixed-burst"].contains(String(text[..<colon])),
                      let count = Int(text[text.index(after: colon)...]) {
                for index in 0..<count {
                    let frame = switch WebSocketEchoServer.burstMessage(index, mixed: text.hasPrefix("mixed")) {
                    case .text(let text): WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: text))
                    case .binary(let bytes): WebSocketFrame(fin: true, opcode: .binary, data: context.channel.allocator.buffer(bytes: bytes))
                    }
                    context.write(wrapOutboundOut(frame), promise: nil)
                }
                context.flush()
            } else {
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: frame.unmaskedData)), promise: nil)
            }
        case .binary:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .binary, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            if closing {
                context.close(promise: nil)
            } else {
                // Echo the client's code, then close.
                closing = true
                var data = frame.unmaskedData
                var echo = context.channel.allocator.buffer(capacity: 2)
                if let code = data.readInteger(as: UInt16.self) { echo.writeInteger(code) }
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: echo))).whenComplete { _ in
                    context.close(promise: nil)
                }
            }
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        default:
            break
        }
    }

    private func close(context: ChannelHandlerContext, code: UInt16) {
        closing = true
        var buffer = context.channel.allocator.buffer(capacity: 16)
        buffer.writeInteger(code)
        buffer.writeString("bye \(code)")
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: buffer)), promise: nil)
    }

    /// One message at a time, the next once the last was written: how far it gets shows whether
    /// the client stopped reading.
    private func flood(context: ChannelHandlerContext, remaining: Int) {
        guard remaining > 0, context.channel.isActive else { return }
        let buffer = context.channel.allocator.buffer(repeating: 0x2A, count: 65536)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .binary, data: buffer))).whenSuccess { [self] in
            server?.flooded.withLock { $0 += 1 }
            flood(context: context, remaining: remaining - 1)
        }
    }
}
