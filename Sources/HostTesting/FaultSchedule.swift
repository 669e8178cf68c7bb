import Synchronization

/// The seeded decisions and the record of them. Every request takes exactly two draws, under the
/// lock and in arrival order, so request number n gets the same draws for a given seed whatever
/// happened before it; nothing here does I/O or waits.
final class FaultSchedule: Sendable {
    private struct State {
        var plan: FaultPlan
        var random: SplitMix64
        var events: [FaultEvent] = []
        var counts: [FaultKind: Int] = [:]
        /// The request held by a `reorder`, waiting for the next one.
        var held: ReorderHold?
    }

    private let state: Mutex<State>

    init(seed: UInt64, plan: FaultPlan) {
        state = Mutex(State(plan: plan, random: SplitMix64(seed: seed)))
    }

    var events: [FaultEvent] { state.withLock { $0.events } }
    var counts: [FaultKind: Int] { state.withLock { $0.counts } }
    var plan: FaultPlan { state.withLock { $0.plan } }

    func setPlan(_ plan: FaultPlan) { state.withLock { $0.plan = plan } }

    /// Numbers the request, draws its fault and records it.
    func decide(method: String, path: String) -> FaultDecision {
        state.withLock { state in
            let number = state.events.count + 1
            let roll = state.random.nextUnit()
            let pauseRoll = state.random.nextUnit()
            var kind = state.plan.kind(for: roll)
            // A request arriving while another is held goes first and releases it; being the
            // second half of a reorder, it is not held itself.
            let releasing = state.held
            state.held = nil
            if releasing != nil, kind == .reorder { kind = .pass }
            var delayMs: Int?
            if kind == .delay {
                let range = state.plan.delayMs
                delayMs = range.lowerBound + Int(pauseRoll * Double(range.count))
            }
            var hold: ReorderHold?
            if kind == .reorder {
                hold = ReorderHold(number: number, limitMs: state.plan.holdMs)
                state.held = hold
            }
            let event = FaultEvent(number: number, method: method, path: path, kind: kind, delayMs: delayMs,
                                   aheadOf: releasing?.number)
            state.events.append(event)
            state.counts[kind, default: 0] += 1
            return FaultDecision(event: event, hold: hold, releasing: releasing)
        }
    }

    /// Takes `hold` out of the slot when its wait ran out with no next request; false when someone
    /// has already taken it and will release it.
    func withdraw(_ hold: ReorderHold) -> Bool {
        state.withLock { state in
            guard state.held?.number == hold.number else { return false }
            state.held = nil
            return true
        }
    }

    /// Releases the held request, if any, to go on at once.
    func releaseHeld() {
        let held: ReorderHold? = state.withLock { state in
            defer { state.held = nil }
            return state.held
        }
        held?.release()
    }
}
