/// A moment on the wall clock as a program stores and sends it: seconds since 1970-01-01 UTC.
/// Only for what outlives the process or leaves it (a row's timestamp, a token's expiry); deadlines
/// and intervals are `ContinuousClock` instants and `Duration`s, which do not jump.
///
/// ```swift
/// let expires = clock.wallTime + .seconds(30)
/// expires.secondsSince1970   // 1_795_000_030.25
/// ```
public struct WallTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var secondsSince1970: Double

    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    public static func + (time: WallTime, duration: Duration) -> WallTime {
        WallTime(secondsSince1970: time.secondsSince1970 + duration.seconds)
    }

    public static func - (time: WallTime, duration: Duration) -> WallTime {
        WallTime(secondsSince1970: time.secondsSince1970 - duration.seconds)
    }

    public static func - (later: WallTime, earlier: WallTime) -> Duration {
        .seconds(later.secondsSince1970 - earlier.secondsSince1970)
    }

    public var description: String { String(secondsSince1970) }
}

extension Duration {
    /// In seconds, as a rate's arithmetic, metrics and JSON bodies want a duration.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
