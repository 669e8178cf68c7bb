import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// One connection's guard, between Hummingbird's HTTP/1 codec and its requests: counts the
/// connection in (``ConnectionTable``, which may close an older idle one to make room, or refuse
/// this one), closes it when its peer keeps it waiting past ``ConnectionLimits`` (the first head,
/// a body's next bytes, the next request on a kept-alive connection), and tells a request waiting
/// on the peer's behalf (a held pull) when the peer has gone.
///
/// No timeout runs while the server itself is answering: a held pull's minute is the server's
/// choice, bounded by `waitMs` and by held pulls per user.
///
/// Runs on its channel's event loop, as every NIO handler does.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What the peer is keeping the server waiting for, and the metrics' name for closing it.
    private enum Wait: String {
        case head = "head_timeout", body = "body_timeout", idle = "idle_timeout"
    }

    private let table: ConnectionTable
    private let metrics: SyncMetrics
    private var id: Int?
    private var life: ConnectionLife?
    private var refused = false
    private var timer: Scheduled<Void>?
    /// Requests whose head was read and whose response has not ended.
    private var requestsOpen = 0
    /// Between a request's head and its end.
    private var readingBody = false

    init(table: ConnectionTable, metrics: SyncMetrics) {
        self.table = table
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        switch table.open(context.channel, address: context.channel.remoteAddress?.ipAddress ?? "") {
        case .admitted(let id, let life, let evicted):
            self.id = id
            self.life = life
            if let evicted {
                metrics.connectionClosed(reason: "evicted")
                evicted.close(promise: nil)
            }
            arm(.head, context: context)
        case .refused(let bound):
            metrics.connectionRefused(bound: bound)
            refused = true
            // The channel may not be registered yet while its pipeline is being built.
            if context.channel.isActive { context.close(promise: nil) }
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        if refused {
            context.close(promise: nil)
            return
        }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requestsOpen += 1
            readingBody = true
            if let id { table.busy(id) }
            arm(.body, context: context)
        case .body:
            arm(.body, context: context)
        case .end:
            readingBody = false
            if requestsOpen == 0 { becomeIdle(context: context) } else { disarm() }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            requestsOpen = max(0, requestsOpen - 1)
            if requestsOpen == 0, !readingBody { becomeIdle(context: context) }
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The peer shut its side (Hummingbird allows half-closed connections): nothing it asked
        // for can still reach it once it has closed the socket, so a held pull answers now.
        if case .inputClosed? = event as? ChannelEvent { life?.peerGone() }
        context.fireUserInboundEventTriggered(event)
    }

    private func becomeIdle(context: ChannelHandlerContext) {
        if let id { table.idle(id) }
        arm(.idle, context: context)
    }

    private func arm(_ wait: Wait, context: ChannelHandlerContext) {
        timer?.cancel()
        let timeout = switch wait {
        case .head: table.limits.headTimeout
        case .body: table.limits.bodyTimeout
        case .idle: table.limits.idleTimeout
        }
        // On the event loop's clock: a connection's timers are the network's, not the server's time.
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(min(max(timeout.seconds, 0), 86_400) * 1e9))) { [metrics] in
            metrics.connectionClosed(reason: wait.rawValue)
            context.close(promise: nil)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }

    private func release() {
        disarm()
        life?.peerGone()
        if let id { table.close(id) }
        id = nil
    }
}
