import DequeModule
import NIOCore
import NIOWebSocket
import Synchronization

/// An open WebSocket, client side (RFC 6455), on a SwiftNIO channel: messages sent as masked
/// frames, messages received queued until ``receive()`` takes them, pings answered, and the
/// closing handshake run from either end.
///
/// Received messages wait here, not in the socket: past ``inboundHighWater`` bytes unread the
/// channel stops reading (the server's sends then back up in TCP), and it reads again once
/// ``receive()`` has taken them.
public final class WebSocketConnection: Sendable {
    /// The subprotocol the server chose, "" when none.
    public let subprotocol: String
    /// The extensions the server accepted: always "" (none are offered).
    public let extensions: String
    /// Unread bytes past which the channel stops reading.
    public static let inboundHighWater = 1 << 20

    private let channel: Channel
    private let state = Mutex(State())

    private struct State: ~Copyable {
        var events: Deque<WebSocketEvent> = []
        var unreadBytes = 0
        var waiter: CheckedContinuation<[WebSocketEvent], Never>?
        var paused = false
        /// A close frame went out: sends are refused from then on.
        var closeSent = false
        /// The server's close frame: its code (nil when it carried none) and reason.
        var closeReceived: (code: Int?, reason: String)?
        /// Why the connection failed, when it ended without a closing handshake of its own making.
        var failure: (code: Int, reason: String)?
        var ended = false
    }

    init(channel: Channel, subprotocol: String) {
        self.channel = channel
        self.subprotocol = subprotocol
        extensions = ""
    }

    /// A message to send.
    public enum Message: Sendable {
        case text(String)
        case binary([UInt8])
    }

    /// Sends a text message; returns once it is written to the socket.
    public func send(text: String) async throws(WebSocketError) {
        try await send([.text(text)])
    }

    /// Sends a binary message; returns once it is written to the socket.
    public func send(binary bytes: [UInt8]) async throws(WebSocketError) {
        try await send([.binary(bytes)])
    }

    /// Sends `messages` in order, flushed once; returns once the last is written to the socket.
    public func send(_ messages: [Message]) async throws(WebSocketError) {
        guard !state.withLock({ $0.closeSent || $0.ended }) else {
            throw WebSocketError(.closed, "the WebSocket is closing or closed")
        }
        let frames = ClientFrameWriter.frames(messages, allocator: channel.allocator)
        let channel = channel
        // One hop onto the channel's loop for the whole batch, written once below the frame
        // encoder (the frames are encoded already), through TLS when there is TLS.
        let written = channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
            guard let below = try? channel.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self) else {
                return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
            }
            let promise = channel.eventLoop.makePromise(of: Void.self)
            below.writeAndFlush(NIOAny(frames), promise: promise)
            return promise.futureResult
        }
        do {
            try await written.get()
        } catch {
            throw WebSocketError(.closed, "the WebSocket closed before the message was sent")
        }
    }

    /// Starts the closing handshake: a close frame with `code` (none when nil) and `reason`; the
    /// connection ends when the server answers with its own, or after `timeoutSeconds` without.
    /// Does nothing when one was already sent.
    public func close(code: Int?, reason: String, timeoutSeconds: Int64 = 5) {
        guard state.withLock({ state in
            if state.closeSent || state.ended { return false }
            state.closeSent = true
            return true
        }) else { return }
        var buffer = channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        if let code {
            buffer.writeInteger(UInt16(truncatingIfNeeded: code))
            buffer.writeString(reason)
        }
        let channel = channel
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: MaskKeys.next(), data: buffer), promise: nil)
        channel.eventLoop.scheduleTask(in: .seconds(timeoutSeconds)) { channel.close(promise: nil) }
    }

    /// Ends the connection at once, without a closing handshake.
    public func abort() {
        channel.close(promise: nil)
    }

    /// The events that arrived since the last call, waiting for one when there are none. After
    /// the `.closed` event, returns [] at once.
    public func receive() async -> [WebSocketEvent] {
        let taken: [WebSocketEvent]? = state.withLock { state in
            guard !state.events.isEmpty || state.ended else { return nil }
            return take(&state)
        }
        if let taken { return taken }
        return await withCheckedContinuation { continuation in
            let ready: [WebSocketEvent]? = state.withLock { state in
                if !state.events.isEmpty || state.ended { return take(&state) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Stops waiting: a pending ``receive()`` answers [] now.
    public func cancelReceive() {
        let waiter = state.withLock { state in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: [])
    }

    private func take(_ state: inout State) -> [WebSocketEvent] {
        let events = Array(state.events)
        state.events.removeAll(keepingCapacity: true)
        state.unreadBytes = 0
        if state.paused {
            state.paused = false
            channel.setOption(ChannelOptions.autoRead, value: true).whenSuccess { [channel] in channel.read() }
        }
        return events
    }

    /// Queues what one read of the socket brought, in order, under one lock: a waiting
    /// ``receive()`` wakes once for the whole read, not once for its first message.
    func deliver(_ arrived: [WebSocketEvent], bytes: Int) {
        guard !arrived.isEmpty else { return }
        let handover: (CheckedContinuation<[WebSocketEvent], Never>, [WebSocketEvent])? = state.withLock { state in
            state.events.append(contentsOf: arrived)
            state.unreadBytes += bytes
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, take(&state))
            }
            if state.unreadBytes > Self.inboundHighWater, !state.paused {
                state.paused = true
                channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            }
            return nil
        }
        if let (waiter, events) = handover { waiter.resume(returning: events) }
    }

    // MARK: - Called by the channel's handler, on its event loop

    /// A whole message or a control frame: the message is answered, for the handler to deliver
    /// with the rest of the read; control frames are handled here.
    func received(_ frame: WebSocketFrame, context: ChannelHandlerContext) -> (event: WebSocketEvent, bytes: Int)? {
        switch frame.opcode {
        case .text:
            // Checked in place, without a copy into an array first.
            let data = frame.unmaskedData
            guard let text = String(validating: data.readableBytesView, as: UTF8.self) else {
                fail(code: 1007, reason: "a text message that is not UTF-8", context: context)
                return nil
            }
            return (.text(text), data.readableBytes)
        case .binary:
            var data = frame.unmaskedData
            let bytes = data.readBytes(length: data.readableBytes) ?? []
            return (.binary(bytes), bytes.count)
        case .ping:
            context.writeAndFlush(NIOAny(WebSocketFrame(fin: true, opcode: .pong, maskKey: MaskKeys.next(), data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readInteger(as: UInt16.self).map(Int.init)
            let reason = data.readString(length: data.readableBytes) ?? ""
            let answer = state.withLock { state in
                state.closeReceived = (code, reason)
                defer { state.closeSent = true }
                return !state.closeSent
            }
            if answer {
                // Echo the code, as RFC 6455 §5.5.1 says, then let the server close the TCP connection.
                var echo = context.channel.allocator.buffer(capacity: 2)
                if let code { echo.writeInteger(UInt16(code)) }
                context.writeAndFlush(NIOAny(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: MaskKeys.next(), data: echo)), promise: nil)
                let channel = context.channel
                context.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        default:
            break
        }
        return nil
    }

    /// Fails the connection (RFC 6455 §7.1.7): a close frame with `code`, then the socket closed.
    func fail(code: Int, reason: String, context: ChannelHandlerContext) {
        let send = state.withLock { state in
            if state.failure == nil { state.failure = (code, reason) }
            defer { state.closeSent = true }
            return !state.closeSent
        }
        if send {
            var buffer = context.channel.allocator.buffer(capacity: 2)
            buffer.writeInteger(UInt16(code))
            context.writeAndFlush(NIOAny(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: MaskKeys.next(), data: buffer)), promise: nil)
        }
        context.close(promise: nil)
    }

    func failed(_ reason: String) {
        state.withLock { state in
            if state.failure == nil { state.failure = (1006, reason) }
        }
    }

    /// The socket closed: the `.closed` event, which ends the stream of events.
    func ended() {
        let event: WebSocketEvent? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            if let received = state.closeReceived, state.closeSent, state.failure == nil {
                return .closed(code: received.code ?? 1005, reason: received.reason, wasClean: true)
            }
            return .closed(code: 1006, reason: state.failure?.reason ?? "", wasClean: false)
        }
        if let event { deliver([event], bytes: 0) }
    }
}
