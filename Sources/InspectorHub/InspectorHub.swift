// The inspector hub (`hybrid run --inspect`, `hybrid test --inspect`): the process is its own hub.
// JavaScriptCore's remote inspector connects out to a hub and lists its contexts there as targets;
// this one takes that connection from this process only, and serves the app's target (or each
// test file's in turn) to one debugger at a time over a WebSocket on 127.0.0.1, at a path holding
// a secret made for the run, as node does.
import JSON
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization
import SystemIO

/// What a hub serves, and how it reaches the JS thread.
public struct InspectorHubOptions: Sendable {
    /// The port debuggers connect to on 127.0.0.1; 0 for any free one.
    public var port: Int
    /// The name the inspected context was given (`JSGlobalContextSetName`): the one target served
    /// (with ``servesSeveralTargets``, the first; ``InspectorHub/expectTarget(named:)`` the next).
    public var targetName: String
    /// `--inspect-brk`: the app waits until a debugger sends `Runtime.runIfWaitingForDebugger`.
    /// With ``servesSeveralTargets``, every target waits for its own, and only the first pauses.
    public var breakOnStart: Bool
    /// `hybrid test --inspect`: contexts served one after another (each test file's), each a
    /// target of the `Target` domain on the one WebSocket (``InspectorHub``'s header says how).
    public var servesSeveralTargets = false
    /// Called after each message to the target is written: the target reads its socket only when
    /// the JS thread runs its GLib main context, so this must make that happen.
    public var wakeTarget: @Sendable () -> Void

    public init(port: Int, targetName: String, breakOnStart: Bool = false, wakeTarget: @escaping @Sendable () -> Void) {
        self.port = port
        self.targetName = targetName
        self.breakOnStart = breakOnStart
        self.wakeTarget = wakeTarget
    }
}

public struct InspectorHubError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The hub: two listeners on 127.0.0.1, one for JavaScriptCore's own connection (refused to any
/// other process), one for debuggers (WebSocket at `/SECRET`, one at a time).
///
/// With ``InspectorHubOptions/servesSeveralTargets`` the WebSocket speaks WebKit's `Target`
/// domain, as WebKit's own frontend does for workers: the hub sends `Target.targetCreated
/// {targetInfo: {targetId, type: "javascript", title, isPaused}}` when a context is listed (or
/// when the debugger attaches), `Target.dispatchMessageFromTarget {targetId, message}` for each of
/// its messages and `Target.targetDestroyed {targetId}` when it ends; the debugger sends
/// `Target.sendMessageToTarget {targetId, message}`. A paused (`isPaused`) target waits until its
/// debugger sends it `Runtime.runIfWaitingForDebugger`.
public final class InspectorHub: Sendable {
    /// `127.0.0.1:PORT`, for `RemoteInspector::setInspectorServerAddress`.
    public let targetAddress: String
    /// `ws://127.0.0.1:PORT/SECRET`, for debuggers.
    public let frontendURL: String
    public let port: Int

    private let group: MultiThreadedEventLoopGroup
    private let listeners: [Channel]
    private let relay: Relay
    private let closed = Atomic<Bool>(false)

    /// Binds both listeners. Throws when the port is taken or the address cannot be bound.
    public static func start(_ options: InspectorHubOptions) throws(InspectorHubError) -> InspectorHub {
        guard (0...65535).contains(options.port) else {
            throw InspectorHubError("--inspect: expected a port from 0 to 65535, got \(options.port)")
        }
        let secret = Self.makeSecret()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let relay = Relay(options: options)
        do {
            let targetListener = try ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(TargetConnectionHandler(relay: relay))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).wait()
            let frontendListener: Channel
            do {
                frontendListener = try ServerBootstrap(group: group)
                    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .childChannelInitializer { channel in
                        Self.configureFrontend(channel, secret: secret, relay: relay)
                    }
                    .bind(host: "127.0.0.1", port: options.port).wait()
            } catch {
                try? targetListener.close().wait()
                throw error
            }
            let targetPort = targetListener.localAddress?.port ?? 0
            let port = frontendListener.localAddress?.port ?? options.port
            return InspectorHub(targetAddress: "127.0.0.1:\(targetPort)", frontendURL: "ws://127.0.0.1:\(port)/\(secret)",
                                port: port, group: group, listeners: [targetListener, frontendListener], relay: relay)
        } catch {
            try? group.syncShutdownGracefully()
            throw InspectorHubError("--inspect: cannot listen on 127.0.0.1:\(options.port): \(error)")
        }
    }

    private init(targetAddress: String, frontendURL: String, port: Int, group: MultiThreadedEventLoopGroup, listeners: [Channel], relay: Relay) {
        self.targetAddress = targetAddress
        self.frontendURL = frontendURL
        self.port = port
        self.group = group
        self.listeners = listeners
        self.relay = relay
    }

    /// With ``InspectorHubOptions/breakOnStart``: false until a debugger has said it is ready and
    /// the pause at the app's first statement is asked for. Always true without it.
    public var released: Bool { relay.released }

    /// Whether a debugger is attached now.
    public var attached: Bool { relay.attached }

    /// With ``InspectorHubOptions/servesSeveralTargets``, before the next context is made: the
    /// context named `name` is the target from now on, waiting (``released`` false) under
    /// `--inspect-brk` while a debugger is attached or yet to come. The one before is ended.
    public func expectTarget(named name: String) {
        relay.expectTarget(named: name)
    }

    /// With ``InspectorHubOptions/servesSeveralTargets``: the target's context has ended; the
    /// debugger is told (`Target.targetDestroyed`).
    public func endTarget() {
        relay.endTarget()
    }

    /// Closes the listeners and any connection. Safe to call more than once.
    public func close() {
        guard closed.exchange(true, ordering: .acquiringAndReleasing) == false else { return }
        relay.closeAll()
        for listener in listeners { try? listener.close().wait() }
        try? group.syncShutdownGracefully()
    }

    private static func makeSecret() -> String {
        // The system generator: getrandom(2), as a secret needs.
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }

    /// The secret's path, and a Host naming this machine (a web page cannot rebind a name to us).
    private static func admits(_ head: HTTPRequestHead, secret: String, port: Int) -> Bool {
        let host = head.headers["host"]
        return head.uri == "/" + secret && host.count == 1 && ["127.0.0.1:\(port)", "localhost:\(port)"].contains(host[0])
    }

    private static func configureFrontend(_ channel: Channel, secret: String, relay: Relay) -> EventLoopFuture<Void> {
        let port = channel.localAddress?.port ?? 0
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 26,
            shouldUpgrade: { channel, head in
                guard Self.admits(head, secret: secret, port: port), !relay.attached else {
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
                return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
            },
            upgradePipelineHandler: { channel, _ in
                // The refusal stood behind the HTTP handlers the upgrade removed; frames pass it by.
                channel.pipeline.removeHandler(name: RefusalHandler.name).flatMap {
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(FrontendHandler(relay: relay))
                    }
                }
            })
        return channel.pipeline.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in })
        ).flatMap {
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(RefusalHandler { head in
                    // The right path while a debugger is attached: 409, saying so; else 403.
                    Self.admits(head, secret: secret, port: port) ? .conflict : .forbidden
                }, name: RefusalHandler.name)
            }
        }
    }
}

// MARK: - The relay between the target and the debugger

/// The hub's state, shared by its connections (all on the hub's one event loop, but read from
/// other threads through ``released`` and ``attached``).
/// `HYBRID_INSPECTOR_TRACE=1`: each message through the hub, on stderr (for debugging a debugger).
func trace(_ text: @autoclosure () -> String) {
    if tracing { StandardStreams.write("hub: \(text())\n", to: 2) }
}

private let tracing = ProcessEnvironment["HYBRID_INSPECTOR_TRACE"] != nil

final class Relay: Sendable {
    let options: InspectorHubOptions
    private let state: Mutex<State>

    /// Ids the hub uses for messages of its own to the target; their answers go to no debugger.
    static let ownIDs = 1_000_000_000...

    enum EntryPhase {
        case none, pausing, stepping
    }

    struct State: ~Copyable {
        var target: Channel?
        /// The name of the context served now (``InspectorHub/expectTarget(named:)``).
        var targetName: String
        var targetID: UInt64?
        /// Targets expected so far; only the first pauses at its first statement.
        var targetCount = 1
        /// Whether the debugger has been told of the target (`Target.targetCreated`).
        var announced = false
        /// A debugger attached once and left: no later target waits for one.
        var abandoned = false
        var frontend: Channel?
        /// Messages from the debugger that arrived before the target was listed.
        var waiting: [String] = []
        var released: Bool
        var nextOwnID = Relay.ownIDs.lowerBound
        var entryRequestID: Int?
        var entry = EntryPhase.none
        var entrySteps = 0
        /// Each script's URL, by its id (`Debugger.scriptParsed`).
        var scriptURLs: [String: String] = [:]
        var closed = false
    }

    init(options: InspectorHubOptions) {
        self.options = options
        state = Mutex(State(targetName: options.targetName, targetCount: options.servesSeveralTargets ? 0 : 1, released: !options.breakOnStart))
    }

    func expectTarget(named name: String) {
        endTarget()
        state.withLock { state in
            state.targetName = name
            state.targetCount += 1
            state.released = !options.breakOnStart || state.abandoned
            state.entry = .none
            state.entrySteps = 0
            state.entryRequestID = nil
            state.scriptURLs = [:]
            state.waiting.removeAll()
        }
    }

    func endTarget() {
        let (id, announced): (UInt64?, Bool) = state.withLock { state in
            defer {
                state.targetID = nil
                state.announced = false
            }
            return (state.targetID, state.announced)
        }
        guard let id else { return }
        sendToTarget(.withID("FrontendDidClose", id))
        if announced { writeFrontend(Self.event("Target.targetDestroyed", ["targetId": .string(String(id))])) }
    }

    static func event(_ method: String, _ params: JSONObject) -> String {
        JSONWriter.write(["method": .string(method), "params": .object(params)])
    }

    /// `Target.targetCreated`, once per target, when both it and a debugger are there.
    private func announce(_ id: UInt64) {
        guard options.servesSeveralTargets else { return }
        let (fresh, name, paused): (Bool, String, Bool) = state.withLock { state in
            defer { state.announced = true }
            return (!state.announced && state.targetID == id, state.targetName, !state.released)
        }
        guard fresh else { return }
        writeFrontend(Self.event("Target.targetCreated", ["targetInfo": .object([
            "targetId": .string(String(id)), "type": "javascript", "title": .string(name), "isPaused": .bool(paused),
        ])]))
    }

    var released: Bool { state.withLock { $0.released } }
    var attached: Bool { state.withLock { $0.frontend != nil } }

    // From the target.

    /// Refuses a second target connection: JavaScriptCore makes one per process.
    func targetConnected(_ channel: Channel) -> Bool {
        trace("target connected")
        return state.withLock { state in
            guard state.target == nil, !state.closed else { return false }
            state.target = channel
            return true
        }
    }

    func targetClosed(_ channel: Channel) {
        let frontend: Channel? = state.withLock { state in
            guard state.target === channel else { return nil }
            state.target = nil
            state.targetID = nil
            return state.frontend
        }
        frontend?.close(promise: nil)
    }

    func received(_ frame: TargetFrame) {
        trace("target -> \(frame.name) \(frame.body.count) bytes")
        switch frame.name {
        case "SetTargetList":
            let name = state.withLock { $0.targetName }
            guard let listings = try? frame.listings(),
                  let mine = listings.first(where: { $0.type == "JavaScript" && $0.name == name }) else { return }
            let (setUp, pending): (Bool, [String]) = state.withLock { state in
                guard state.targetID == nil, state.targetName == name else { return (false, []) }
                state.targetID = mine.id
                guard state.frontend != nil else { return (false, []) }
                defer { state.waiting.removeAll() }
                return (true, state.waiting)
            }
            if setUp {
                sendToTarget(.withID("Setup", mine.id))
                announce(mine.id)
                for message in pending { fromFrontend(message) }
            }
        case "SendMessageToFrontend":
            guard let (id, text) = try? frame.idAndText() else { return }
            trace("target \(id) -> \(text.prefix(200))")
            toFrontend(text, from: id)
        default:
            break
        }
    }

    /// A message of the target's (`from`: its id; nil for the one served now).
    private func toFrontend(_ text: String, from id: UInt64? = nil) {
        if let id = Self.answerID(text), Self.ownIDs.contains(id) {
            ownAnswer(id: id, text: text)
            return
        }
        if entryStepHides(text) { return }
        guard options.servesSeveralTargets else {
            writeFrontend(text)
            return
        }
        let current = state.withLock { $0.targetID }
        guard let targetID = id ?? current, targetID == current else { return }
        writeFrontend(Self.event("Target.dispatchMessageFromTarget", ["targetId": .string(String(targetID)), "message": .string(text)]))
    }

    private func writeFrontend(_ text: String) {
        let frontend = state.withLock { $0.frontend }
        guard let frontend else { return }
        frontend.eventLoop.execute {
            var buffer = frontend.allocator.buffer(capacity: text.utf8.count)
            buffer.writeString(text)
            frontend.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: buffer), promise: nil)
        }
    }

    /// The id of an answer, which JavaScriptCore writes last: `{"result":…,"id":N}`; nil for an
    /// event. Read without parsing what may be a large answer.
    static func answerID(_ text: String) -> Int? {
        let bytes = Array(text.utf8.suffix(32))
        guard bytes.last == UInt8(ascii: "}") else { return nil }
        var index = bytes.count - 2
        var value = 0
        var scale = 1
        while index >= 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            value += Int(bytes[index] - UInt8(ascii: "0")) * scale
            scale *= 10
            index -= 1
        }
        let key = Array("\"id\":".utf8)
        guard scale > 1, index >= key.count - 1, Array(bytes[(index - key.count + 1)...index]) == key else { return nil }
        return value
    }

    private func ownAnswer(id: Int, text: String) {
        let isEntry = state.withLock { $0.entryRequestID == id }
        if isEntry { release() }
    }

    /// `--inspect-brk`'s pause lands on the next statement run: the host's module loader, which
    /// then runs the main script's program code (the module wrapper's expression) before the
    /// module's own code inside it. Those pauses, and the steps on from them, are the hub's own
    /// (hidden from the debugger, as their `resumed` events are): the debugger sees the first
    /// pause in one of the app's scripts inside a function, the module's first statement. At
    /// most ``entrySteps`` steps.
    private func entryStepHides(_ text: String) -> Bool {
        let phase = state.withLock { $0.entry }
        guard phase != .none else { return false }
        // Scripts parsed before the wait ended are the host's: one not listed here is taken as such.
        if text.hasPrefix("{\"method\":\"Debugger.scriptParsed\""), case .object(let event)? = try? JSONParser.parse(text),
           case .object(let params)? = event["params"], case .string(let id)? = params["scriptId"] {
            let url = params["url"]?.stringValue ?? ""
            state.withLock { $0.scriptURLs[id] = url }
            return false
        }
        if text.hasPrefix("{\"method\":\"Debugger.resumed\"") { return phase == .stepping }
        guard text.hasPrefix("{\"method\":\"Debugger.paused\""), case .object(let event)? = try? JSONParser.parse(text),
              case .object(let params)? = event["params"], case .array(let frames)? = params["callFrames"],
              case .object(let frame)? = frames.first else { return false }
        let scriptID = frame["location"]?["scriptId"]?.stringValue ?? ""
        let (steps, url) = state.withLock { state in
            state.entrySteps += 1
            return (state.entrySteps, state.scriptURLs[scriptID] ?? "")
        }
        let hostOwn = url.isEmpty || url.hasPrefix("hybrid:")
        guard steps <= Self.entrySteps, hostOwn || Self.inProgramCode(frame) else {
            state.withLock { $0.entry = .none }
            return false
        }
        state.withLock { $0.entry = .stepping }
        sendOwn("Debugger.stepInto", [:])
        return true
    }

    static let entrySteps = 20_000

    /// Whether a paused frame is a script's program code (its scopes are the global ones only).
    static func inProgramCode(_ frame: JSONObject) -> Bool {
        guard case .array(let scopes)? = frame["scopeChain"] else { return false }
        return scopes.allSatisfy { scope in
            guard case .object(let fields) = scope, case .string(let type)? = fields["type"] else { return false }
            return type == "global" || type == "globalLexicalEnvironment"
        }
    }

    private func release() {
        let wasReleased = state.withLock { state in
            defer { state.released = true }
            return state.released
        }
        if !wasReleased { options.wakeTarget() }
    }

    // From the debugger.

    func frontendConnected(_ channel: Channel) -> Bool {
        let id: UInt64? = state.withLock { state in
            guard state.frontend == nil, !state.closed else { return nil }
            state.frontend = channel
            return state.targetID ?? UInt64.max
        }
        guard let id else { return false }
        if id != UInt64.max {
            sendToTarget(.withID("Setup", id))
            // After the upgrade's answer has gone: the debugger reads this as its first message.
            channel.eventLoop.execute { self.announce(id) }
        }
        return true
    }

    func frontendClosed(_ channel: Channel) {
        let (attached, id): (Bool, UInt64?) = state.withLock { state in
            guard state.frontend === channel else { return (false, nil) }
            state.frontend = nil
            state.waiting.removeAll()
            state.announced = false
            state.abandoned = true
            return (true, state.targetID)
        }
        guard attached else { return }
        if let id { sendToTarget(.withID("FrontendDidClose", id)) }
        // The debugger that leaves before saying it is ready does not hold the app forever.
        release()
    }

    func fromFrontend(_ text: String) {
        trace("frontend -> \(text.prefix(200))")
        guard options.servesSeveralTargets else {
            fromFrontend(text, forTarget: nil)
            return
        }
        // The Target domain: `Target.sendMessageToTarget {targetId, message}`, nothing else.
        guard case .object(let fields)? = try? JSONParser.parse(text), case .number(let number)? = fields["id"] else { return }
        let outer = Int(number)
        let current = state.withLock { $0.targetID }
        guard fields["method"] == "Target.sendMessageToTarget", case .object(let params)? = fields["params"],
              case .string(let message)? = params["message"], let targetID = params["targetId"]?.stringValue else {
            writeFrontend(Self.error(id: outer, "expected Target.sendMessageToTarget {targetId, message}, got \(fields["method"]?.stringValue ?? "no method")"))
            return
        }
        guard let current, targetID == String(current) else {
            writeFrontend(Self.error(id: outer, "Target.sendMessageToTarget: no target \(targetID) (it has ended, or is not listed yet)"))
            return
        }
        writeFrontend("{\"result\":{},\"id\":\(outer)}")
        fromFrontend(message, forTarget: current)
    }

    static func error(id: Int, _ message: String) -> String {
        JSONWriter.write(["error": .object(["code": .number(-32000), "message": .string(message)]), "id": .number(Double(id))])
    }

    private func fromFrontend(_ text: String, forTarget target: UInt64?) {
        let id: UInt64? = target ?? state.withLock { state in
            guard let id = state.targetID else {
                // Replayed once the target is listed (``received(_:)``).
                state.waiting.append(text)
                return nil
            }
            return id
        }
        guard let id else { return }
        // Node's signal that a debugger has set its breakpoints: answered here, as JavaScriptCore
        // has no such method.
        if text.contains("Runtime.runIfWaitingForDebugger"), case .object(let fields)? = try? JSONParser.parse(text),
           fields["method"] == .string("Runtime.runIfWaitingForDebugger") {
            if case .number(let number)? = fields["id"] {
                toFrontend("{\"result\":{},\"id\":\(Int(number))}")
            }
            if !released {
                if state.withLock({ $0.targetCount }) == 1 {
                    startApp()
                } else {
                    // A later test file: released once the target has answered this, so after
                    // the debugger's messages before it (its breakpoints) have been read.
                    sendReleasing("Runtime.evaluate", ["expression": "0"])
                }
            }
            return
        }
        sendToTarget(.withIDAndText("SendMessageToTarget", id, text))
    }

    /// `--inspect-brk`: the app pauses at its first statement, in whatever script of its own
    /// runs first (``entryStepHides(_:)``).
    private func startApp() {
        sendOwn("Debugger.enable", [:])
        // JavaScriptCore does not pause, even when asked to, while breakpoints are off.
        sendOwn("Debugger.setBreakpointsActive", ["active": .bool(true)])
        // The host's own scripts (`hybrid:…`, and those with no URL) blackboxed: the pause and the
        // steps pass over them, in a few steps instead of thousands.
        sendOwn("Debugger.setShouldBlackboxURL", ["url": .string("^(hybrid:|$)"), "isRegex": .bool(true), "shouldBlackbox": .bool(true)])
        state.withLock { $0.entry = .pausing }
        sendReleasing("Debugger.pause", [:])
    }

    /// An own message whose answer releases the target (``released``).
    private func sendReleasing(_ method: String, _ params: JSONObject) {
        sendOwn(method, params, releasing: true)
    }

    @discardableResult
    private func sendOwn(_ method: String, _ params: JSONObject, releasing: Bool = false) -> Int {
        let (id, targetID): (Int, UInt64?) = state.withLock { state in
            defer { state.nextOwnID += 1 }
            if releasing { state.entryRequestID = state.nextOwnID }
            return (state.nextOwnID, state.targetID)
        }
        let message: JSONValue = ["id": .number(Double(id)), "method": .string(method), "params": .object(params)]
        if let targetID { sendToTarget(.withIDAndText("SendMessageToTarget", targetID, JSONWriter.write(message))) }
        return id
    }

    private func sendToTarget(_ frame: TargetFrame) {
        guard let target = state.withLock({ $0.closed ? nil : $0.target }) else { return }
        let bytes = frame.bytes
        let wake = options.wakeTarget
        target.eventLoop.execute {
            var buffer = target.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            target.writeAndFlush(buffer).whenComplete { _ in wake() }
        }
    }

    func closeAll() {
        let channels: [Channel] = state.withLock { state in
            state.closed = true
            return [state.target, state.frontend].compactMap { $0 }
        }
        for channel in channels { try? channel.close().wait() }
        state.withLock { $0.released = true }
    }
}

// MARK: - Connections

/// JavaScriptCore's connection: frames in, frames out; refused unless it comes from this process.
final class TargetConnectionHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let relay: Relay
    private let pending = Mutex<[UInt8]>([])

    init(relay: Relay) { self.relay = relay }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        guard let peer = channel.remoteAddress?.port, let local = channel.localAddress?.port,
              LoopbackPeer.isThisProcess(peerPort: peer, listeningPort: local), relay.targetConnected(channel) else {
            trace("target refused: not this process's")
            channel.close(promise: nil)
            return
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        let frames: [TargetFrame]? = pending.withLock { pending in
            pending += bytes
            var frames: [TargetFrame] = []
            do {
                while let frame = try TargetFrame.take(from: &pending) { frames.append(frame) }
            } catch {
                return nil
            }
            return frames
        }
        guard let frames else {
            context.close(promise: nil)
            return
        }
        for frame in frames { relay.received(frame) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        relay.targetClosed(context.channel)
    }
}

/// A debugger's WebSocket: text messages relayed to the target, pings answered, one at a time.
final class FrontendHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame
    let relay: Relay
    private let fragments = Mutex<[UInt8]?>(nil)

    init(relay: Relay) { self.relay = relay }

    func handlerAdded(context: ChannelHandlerContext) {
        guard relay.frontendConnected(context.channel) else {
            // Another debugger is attached: 1008 (policy), with the reason.
            var data = context.channel.allocator.buffer(capacity: 64)
            data.write(webSocketErrorCode: .policyViolation)
            data.writeString("a debugger is attached already")
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))).whenComplete { [channel = context.channel] _ in
                channel.close(promise: nil)
            }
            return
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .continuation:
            var payload = frame.unmaskedData
            let bytes = payload.readBytes(length: payload.readableBytes) ?? []
            let whole: [UInt8]? = fragments.withLock { fragments in
                if frame.opcode == .text { fragments = [] }
                fragments? += bytes
                guard frame.fin else { return nil }
                defer { fragments = nil }
                return fragments
            }
            if let whole { relay.fromFrontend(String(decoding: whole, as: UTF8.self)) }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var echo = context.channel.allocator.buffer(capacity: 2)
            echo.write(webSocketErrorCode: .normalClosure)
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: echo))).whenComplete { [channel = context.channel] _ in
                channel.close(promise: nil)
            }
        default:
            _ = frame
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        relay.frontendClosed(context.channel)
    }
}

/// Anything but the WebSocket at the secret path: 403; that path while a debugger is attached:
/// 409 with the reason. Nothing else is served.
final class RefusalHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    static let name = "refusal"
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let status: @Sendable (HTTPRequestHead) -> HTTPResponseStatus
    private let head = Mutex<HTTPRequestHead?>(nil)

    init(status: @escaping @Sendable (HTTPRequestHead) -> HTTPResponseStatus) { self.status = status }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            head.withLock { $0 = request }
        case .body:
            break
        case .end:
            let status = head.withLock { $0 }.map(status) ?? .forbidden
            let body = status == .conflict ? "a debugger is attached already\n" : ""
            var headers = HTTPHeaders()
            headers.add(name: "content-length", value: String(body.utf8.count))
            headers.add(name: "content-type", value: "text/plain; charset=utf-8")
            headers.add(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
            buffer.writeString(body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
        }
    }
}
