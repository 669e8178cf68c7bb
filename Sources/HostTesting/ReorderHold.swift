import Dispatch

/// A request held back by a `reorder`: it waits on `gate` until whoever takes it out of the
/// schedule's slot (the next request, once forwarded; `heal()`; `stop()`) signals it, exactly once.
struct ReorderHold: Sendable {
    /// The held request's number in `FaultProxy.events`.
    let number: Int
    /// How long it waits for a next request before going on alone: the plan's `holdMs`.
    let limitMs: Int
    let gate = DispatchSemaphore(value: 0)

    func release() { gate.signal() }
}
