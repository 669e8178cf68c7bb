import NIOCore
import NIOHTTP1

/// One request as the load generator writes it to a connection: the head, the body, and the promise
/// its answer completes.
struct LoadRequest: Sendable {
    var head: HTTPRequestHead
    var body: ByteBuffer?
    var answer: EventLoopPromise<LoadResponse>
}

/// An answer: the status and the whole body.
struct LoadResponse: Sendable {
    var status: Int
    var body: ByteBuffer
}

/// The connection closed (or timed out) before its request was answered.
struct LoadConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the connection closed before the answer" }
}

/// The last handler of a load-generator connection: one request at a time (no pipelining), its
/// answer gathered whole and handed to its promise. Runs on its channel's event loop only, as every
/// NIO handler does; the rest of the benchmark reaches it through `channel.writeAndFlush`.
final class LoadConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = LoadRequest
    typealias OutboundOut = HTTPClientRequestPart

    private var pending: EventLoopPromise<LoadResponse>?
    private var status = 0
    private var body: ByteBuffer?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        if let earlier = pending {
            // The pool hands a connection to one request at a time; a second is a bug of ours.
            earlier.fail(LoadConnectionClosed())
        }
        pending = request.answer
        context.write(wrapOutboundOut(.head(request.head)), promise: nil)
        if let body = request.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            body = nil
        case .body(var part):
            if body == nil { body = part } else { body!.writeBuffer(&part) }
        case .end:
            let answer = pending
            pending = nil
            answer?.succeed(LoadResponse(status: status, body: body ?? ByteBuffer()))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending?.fail(LoadConnectionClosed())
        pending = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        pending?.fail(error)
        pending = nil
        context.close(promise: nil)
    }
}
