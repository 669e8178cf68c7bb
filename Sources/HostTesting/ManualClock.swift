import SystemIO

/// A clock that moves only when a test says: code under test sleeps on it, and ``advance(by:)``
/// wakes the sleepers whose deadline it passes, so a test of a 30-second hold takes no time.
/// Its monotonic and wall times move together, from the real ones at its creation.
///
/// ```swift
/// let clock = ManualClock()
/// configuration.clock = clock
/// clock.advance(by: .seconds(31))   // the sweeper runs, the held packet is rejected
/// ```
public final class ManualClock: HostClock {
    private let start = ContinuousClock.now
    private let wallStart = SystemClock().wallTime
    /// How far the clock has been moved on.
    private let elapsed = WaitingBoard(Duration.zero)

    public init() {}

    public var now: ContinuousClock.Instant { start + elapsed.read { $0 } }

    public var wallTime: WallTime { wallStart + elapsed.read { $0 } }

    /// Tasks sleeping on this clock right now.
    public var sleepers: Int { elapsed.waiting }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let offset = deadline - start
        let woke = await elapsed.wait({ $0 >= offset ? true : nil }, otherwise: { _ in false })
        if !woke { throw CancellationError() }
    }

    /// Moves the clock on, waking every sleeper whose deadline it reaches.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock does not go back")
        elapsed.update { $0 += duration }
    }
}
