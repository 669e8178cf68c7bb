import Glibc

/// The machine's clocks: `CLOCK_MONOTONIC` through `ContinuousClock`, `CLOCK_REALTIME` for the wall.
public struct SystemClock: HostClock {
    public init() {}

    public var now: ContinuousClock.Instant { .now }

    public var wallTime: WallTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallTime(secondsSince1970: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }
}
