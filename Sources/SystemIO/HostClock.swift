/// Where a program reads the time: a monotonic instant for deadlines, intervals and rates, and
/// the wall clock for what it stores or sends. Code that waits or measures takes one, so that a
/// test moves time on (HostTesting's `ManualClock`) instead of sleeping through it.
///
/// ```swift
/// let clock: any HostClock = SystemClock()
/// let deadline = clock.now + .seconds(30)
/// try await clock.sleep(until: deadline)
/// let stamp = clock.wallTime.secondsSince1970   // what a row records
/// ```
public protocol HostClock: Sendable {
    /// Monotonic: it never jumps with the wall clock.
    var now: ContinuousClock.Instant { get }
    /// The wall clock.
    var wallTime: WallTime { get }
    /// Returns at `deadline` on this clock; throws `CancellationError` when the task is cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension HostClock {
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}
