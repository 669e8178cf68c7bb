import Synchronization

/// What the load benchmark's devices saw, shared by all of them: latencies of the measured window,
/// ops applied, and every op's receipts, so that a run can say whether each op reached each device
/// that may see it exactly once.
final class LoadRecorder: Sendable {
    struct State {
        /// Monotonic nanoseconds; samples count only between them (the measured window).
        var windowStart: UInt64 = .max
        var windowEnd: UInt64 = .max
        var pushMs: [Double] = []
        /// Pushes answered in more than ``slowPushMs``: when (seconds into the window), how long,
        /// and to which instance, so that a run with a bad p99 says whether they came in one burst.
        var slowPushes: [(second: Double, ms: Double, instance: Int)] = []
        /// Pulls sent while ops the device may see were already acknowledged past its cursor: they
        /// should be answered without being held, so their time is a pull's own cost.
        var readyPullMs: [Double] = []
        var heldPulls = 0
        var emptyPulls = 0
        /// From just before a push is sent to the moment a pull of another device returns the op.
        var deliveryMs: [Double] = []
        /// The same, for a pull answered by another instance than the one the push went to.
        var crossInstanceMs: [Double] = []
        var opsApplied = 0
        var packetsApplied = 0
        /// Acknowledged ops: how many devices should receive each (its sender included).
        var expected: [String: Int] = [:]
        var receipts: Set<String> = []
        var duplicates = 0
        var failures: [String: Int] = [:]
        /// The newest seq acknowledged in each scope.
        var newestSeq: [String: Int] = [:]
        /// When a push or a pull was last answered (monotonic ns).
        var lastAnswer: UInt64 = 0
    }

    let state = Mutex(State())

    func inWindow(_ state: State, _ time: UInt64) -> Bool { time >= state.windowStart && time < state.windowEnd }

    func startWindow(at time: UInt64) { state.withLock { $0.windowStart = time } }
    func endWindow(at time: UInt64) { state.withLock { $0.windowEnd = time } }

    static let slowPushMs = 100.0

    func pushed(opIds: [String], scope: String, receivers: Int, seq: Int?, instance: Int, sent: UInt64, answered: UInt64) {
        state.withLock { state in
            state.lastAnswer = max(state.lastAnswer, answered)
            for opId in opIds { state.expected[opId] = receivers }
            if let seq { state.newestSeq[scope] = max(state.newestSeq[scope] ?? 0, seq) }
            if inWindow(state, sent) {
                let ms = Double(answered - sent) / 1e6
                state.pushMs.append(ms)
                if ms > Self.slowPushMs { state.slowPushes.append((Double(sent - state.windowStart) / 1e9, ms, instance)) }
            }
            if inWindow(state, answered) {
                state.opsApplied += opIds.count
                state.packetsApplied += 1
            }
        }
    }

    /// Whether ops in `scopes` past `cursor` were acknowledged already: a pull sent now should find them.
    func hasReady(scopes: [String], after cursor: Int) -> Bool {
        state.withLock { state in scopes.contains { (state.newestSeq[$0] ?? 0) > cursor } }
    }

    /// One pull answered: `received` its ops as (opId, sent, instance pushed to, from this device).
    func pulled(device: Int, instance: Int, ready: Bool, sent: UInt64, answered: UInt64,
                received: [(opId: String, sentAt: UInt64, via: Int, own: Bool)]) {
        state.withLock { state in
            state.lastAnswer = max(state.lastAnswer, answered)
            if inWindow(state, sent) {
                if ready { state.readyPullMs.append(Double(answered - sent) / 1e6) }
                if received.isEmpty { state.emptyPulls += 1 } else if !ready { state.heldPulls += 1 }
            }
            for op in received {
                if !state.receipts.insert(op.opId + "@" + String(device)).inserted { state.duplicates += 1 }
                guard !op.own, inWindow(state, op.sentAt), answered > op.sentAt else { continue }
                let ms = Double(answered - op.sentAt) / 1e6
                state.deliveryMs.append(ms)
                if op.via != instance { state.crossInstanceMs.append(ms) }
            }
        }
    }

    var lastAnswer: UInt64 { state.withLock { $0.lastAnswer } }

    /// Counts from now: a run starts with nothing answered yet.
    func markAnswered(at time: UInt64) { state.withLock { $0.lastAnswer = max($0.lastAnswer, time) } }

    func failed(_ what: String) { state.withLock { $0.failures[what, default: 0] += 1 } }

    /// Receipts still owed for acknowledged ops.
    var missing: Int {
        state.withLock { state in state.expected.values.reduce(0, +) - state.receipts.count }
    }

    var snapshot: State { state.withLock { $0 } }
}
