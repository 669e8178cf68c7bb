import Bridge
import CurlTransport
import DequeModule
import JSON
import Synchronization

/// The app's `network` calls, held to its running limits: `quotas.transfers` at once in all, and
/// `network.connectionsPerHost` at once to one host (scheme, host and port). A call past them
/// waits, as a browser's, undici's or OkHttp's request does past its connection limits, and
/// starts as another ends: in order for its host, the hosts taking turns for a free slot, so a
/// burst to one host neither passes earlier calls to it nor starves the others. Only a call past
/// `quotas.transfersQueued` waiting ones is refused (`E_TOO_MANY`).
///
/// A waiting call still answers to its task's cancellation and to its request's `timeoutMs`
/// (counted from the call, waiting included): either ends it with the same error a running
/// transfer gets, and it is never sent.
///
/// Cost: a call that finds room takes the lock once to start and once to end, with one dictionary
/// lookup each; waiting, giving up and handing over a slot are O(1) (a call given up stays in its
/// host's line, marked, until the line reaches it or is compacted).
final class TransferQueue: Sendable {
    struct Limits: Sendable {
        /// `quotas.transfers`.
        var running: Int
        /// `network.connectionsPerHost`.
        var perHost: Int
        /// `quotas.transfersQueued`.
        var waiting: Int

        init(_ app: AppContext) {
            running = app.quotas.transfers
            perHost = app.network.connectionsPerHost
            waiting = app.quotas.transfersQueued
        }
    }

    /// One call waiting for a slot. Its fields are guarded by the queue's lock until it is resumed;
    /// after that only the call reads them.
    // @unchecked: every field is read and written under `TransferQueue.state`'s lock until the continuation is resumed; after that only the resumed call reads `failure`.
    private final class Waiter: @unchecked Sendable {
        enum Phase { case new, waiting, admitted, abandoned }
        var phase = Phase.new
        var continuation: CheckedContinuation<Void, Never>?
        var failure: BridgeError?
        /// Ends the wait at the request's deadline.
        var timer: Task<Void, Never>?
    }

    /// One host's calls: those running, and the line of those waiting.
    private struct Host {
        var running = 0
        var line = Deque<Waiter>()
        /// Waiters in `line` that were given up on (cancelled, timed out).
        var abandoned = 0
        /// In the queue's `turns`: it has room and a waiter, and waits for a free slot of the app's.
        var hasTurn = false

        var waiting: Int { line.count - abandoned }
        var isIdle: Bool { running == 0 && waiting == 0 }

        /// The first waiter still waiting, taken off the line.
        mutating func next() -> Waiter? {
            while let waiter = line.popFirst() {
                if waiter.phase == .waiting { return waiter }
                abandoned -= 1
            }
            return nil
        }
    }

    private struct State {
        var running = 0
        var waiting = 0
        var hosts: [String: Host] = [:]
        /// Hosts with room for one more and a waiter, in the order they are given a free slot.
        var turns = Deque<String>()
    }

    private let state = Mutex(State())

    /// Runs `body` holding a slot for `origin`, once one is free, passing it how long it waited
    /// (ms). `timeoutMs` (the request's) ends the wait at that long after `started`
    /// (``CurlClient/nowMs()``); `action` and `url` name the call in errors.
    func holding<T>(origin: String, limits: Limits, started: Double, timeoutMs: Int?, action: String, url: String,
                    _ body: (_ queuedMs: Double) async throws(BridgeError) -> T) async throws(BridgeError) -> T {
        let queuedMs = try await acquire(origin: origin, limits: limits, started: started, timeoutMs: timeoutMs, action: action, url: url)
        defer { finish(origin, limits: limits) }
        return try await body(queuedMs)
    }

    /// ``holding(origin:limits:started:timeoutMs:action:url:_:)`` for a slot that may outlive the
    /// call: takes it (waiting as that does) and answers how long it waited (ms); the caller gives
    /// it back with ``finish(_:limits:)``, exactly once, when the transfer is over (for `fetch`,
    /// when the body has been read).
    func acquire(origin: String, limits: Limits, started: Double, timeoutMs: Int?, action: String, url: String) async throws(BridgeError) -> Double {
        let startedAtOnce = state.withLock { state -> Bool in
            guard state.running < limits.running else { return false }
            return Self.start(origin, in: &state, perHost: limits.perHost)
        }
        guard !startedAtOnce else { return 0 }
        let waitedFrom = CurlClient.nowMs()
        try await wait(origin: origin, limits: limits, started: started, timeoutMs: timeoutMs, action: action, url: url)
        return CurlClient.nowMs() - waitedFrom
    }

    /// Takes a slot of `origin`'s when it has room and nobody waits before it (the app's room is
    /// the caller's to check).
    private static func start(_ origin: String, in state: inout State, perHost: Int) -> Bool {
        if let index = state.hosts.index(forKey: origin) {
            guard state.hosts.values[index].running < perHost, state.hosts.values[index].waiting == 0 else { return false }
            state.hosts.values[index].running += 1
        } else {
            state.hosts[origin] = Host(running: 1)
        }
        state.running += 1
        return true
    }

    private func wait(origin: String, limits: Limits, started: Double, timeoutMs: Int?, action: String, url: String) async throws(BridgeError) {
        let waiter = Waiter()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let queued = state.withLock { state -> Bool in
                    // Cancelled before it got here.
                    guard waiter.phase == .new else { return false }
                    if state.running < limits.running, Self.start(origin, in: &state, perHost: limits.perHost) {
                        waiter.phase = .admitted
                        return false
                    }
                    guard state.waiting < limits.waiting else {
                        waiter.phase = .abandoned
                        waiter.failure = Self.tooMany(state, limits: limits, action: action)
                        return false
                    }
                    waiter.phase = .waiting
                    waiter.continuation = continuation
                    state.waiting += 1
                    if state.hosts[origin] == nil { state.hosts[origin] = Host() }
                    let index = state.hosts.index(forKey: origin)!
                    state.hosts.values[index].line.append(waiter)
                    // Room at its host: it waits for the app's, in turn with the other hosts.
                    if state.hosts.values[index].running < limits.perHost, !state.hosts.values[index].hasTurn {
                        state.hosts.values[index].hasTurn = true
                        state.turns.append(origin)
                    }
                    return true
                }
                guard queued else { return continuation.resume() }
                if let timeoutMs { armTimer(waiter, origin: origin, deadline: started + Double(timeoutMs), timeoutMs: timeoutMs, action: action, url: url) }
            }
        } onCancel: {
            abandon(waiter, origin: origin, BridgeError.failed(reason: "cancelled", "network.\(action): the request was cancelled while it waited to start; it was never sent",
                                                               details: ["url": .string(url)]))
        }
        // Resumed: the queue has let go of it, so its fields are the call's to read.
        if let failure = waiter.failure { throw failure }
    }

    /// Ends `waiter`'s wait at `deadline` with the error a transfer that timed out gets.
    private func armTimer(_ waiter: Waiter, origin: String, deadline: Double, timeoutMs: Int, action: String, url: String) {
        let timer = Task { [self] in
            let remaining = deadline - CurlClient.nowMs()
            if remaining > 0 { try? await Task.sleep(for: .microseconds(Int64(remaining * 1000))) }
            guard !Task.isCancelled else { return }
            abandon(waiter, origin: origin, BridgeError.failed(
                reason: "timeout",
                "network.\(action): timed out after \(timeoutMs) ms (timeoutMs) while it waited to start behind the app's running transfers; it was never sent",
                details: ["url": .string(url), "queuedMs": .number(Double(timeoutMs))]))
        }
        let started = state.withLock { _ -> Bool in
            guard waiter.phase == .waiting else { return false }
            waiter.timer = timer
            return true
        }
        if !started { timer.cancel() }
    }

    /// Gives up on a call that has not started: it resumes with `failure` and its place in line is
    /// left to be skipped.
    private func abandon(_ waiter: Waiter, origin: String, _ failure: BridgeError) {
        let resume = state.withLock { state -> (CheckedContinuation<Void, Never>, Task<Void, Never>?)? in
            switch waiter.phase {
            case .new:
                waiter.phase = .abandoned
                waiter.failure = failure
                return nil
            case .admitted, .abandoned:
                return nil
            case .waiting:
                waiter.phase = .abandoned
                waiter.failure = failure
                state.waiting -= 1
                if let index = state.hosts.index(forKey: origin) {
                    state.hosts.values[index].abandoned += 1
                    // A line that is mostly given-up calls is compacted, so that cancelling
                    // without end cannot grow it while its host's transfers hang.
                    let abandoned = state.hosts.values[index].abandoned
                    if abandoned > 64, abandoned * 2 > state.hosts.values[index].line.count {
                        state.hosts.values[index].line.removeAll { $0.phase != .waiting }
                        state.hosts.values[index].abandoned = 0
                    }
                    if state.hosts.values[index].isIdle, !state.hosts.values[index].hasTurn { state.hosts.remove(at: index) }
                }
                defer { waiter.continuation = nil; waiter.timer = nil }
                return (waiter.continuation!, waiter.timer)
            }
        }
        if let (continuation, timer) = resume {
            timer?.cancel()
            continuation.resume()
        }
    }

    /// Gives back `origin`'s slot, starting the calls it makes room for.
    func finish(_ origin: String, limits: Limits) {
        let started = state.withLock { state -> [(CheckedContinuation<Void, Never>, Task<Void, Never>?)] in
            state.running -= 1
            if let index = state.hosts.index(forKey: origin) {
                state.hosts.values[index].running -= 1
                let host = state.hosts.values[index]
                if host.isIdle, !host.hasTurn {
                    state.hosts.remove(at: index)
                } else if host.waiting > 0, host.running < limits.perHost, !host.hasTurn {
                    state.hosts.values[index].hasTurn = true
                    state.turns.append(origin)
                }
            }
            guard state.waiting > 0 else { return [] }
            return Self.startWaiting(&state, limits: limits)
        }
        for (continuation, timer) in started {
            timer?.cancel()
            continuation.resume()
        }
    }

    /// Starts waiting calls while the app has room: one from each host with room in turn, the first
    /// in its line.
    private static func startWaiting(_ state: inout State, limits: Limits) -> [(CheckedContinuation<Void, Never>, Task<Void, Never>?)] {
        var started: [(CheckedContinuation<Void, Never>, Task<Void, Never>?)] = []
        while state.running < limits.running, let origin = state.turns.popFirst() {
            guard let index = state.hosts.index(forKey: origin) else { continue }
            state.hosts.values[index].hasTurn = false
            guard state.hosts.values[index].running < limits.perHost else { continue }
            if let waiter = state.hosts.values[index].next() {
                waiter.phase = .admitted
                started.append((waiter.continuation!, waiter.timer))
                waiter.continuation = nil
                waiter.timer = nil
                state.hosts.values[index].running += 1
                state.running += 1
                state.waiting -= 1
            }
            let host = state.hosts.values[index]
            if host.waiting > 0, host.running < limits.perHost {
                state.hosts.values[index].hasTurn = true
                state.turns.append(origin)
            } else if host.isIdle {
                state.hosts.remove(at: index)
            }
        }
        return started
    }

    private static func tooMany(_ state: State, limits: Limits, action: String) -> BridgeError {
        BridgeError(.tooMany, "network.\(action): \(state.waiting) requests are waiting to start, the app's quota (app.json quotas.transfersQueued: \(limits.waiting)), behind \(state.running) running (quotas.transfers: \(limits.running), at most \(limits.perHost) to one host: network.connectionsPerHost); await some before starting more",
                    details: ["limit": .number(Double(limits.waiting)), "quota": "transfersQueued", "running": .number(Double(state.running))])
    }
}
