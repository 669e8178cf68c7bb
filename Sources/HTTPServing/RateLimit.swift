/// How many requests a second one device may make (`--rate-limit`, `--rate-burst`): a token bucket
/// of ``burst`` requests that refills at ``requestsPerSecond``.
///
/// The default lets a client's sync run through untouched (a run is a few requests; a backfill of a
/// million rows is a thousand snapshot pages) while a device stuck in a loop, or a hostile one, is
/// held to a hundred requests a second.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    /// 0 lets every request through.
    public var requestsPerSecond: Double
    /// How many requests a device that has been quiet may make at once.
    public var burst: Double

    public init(requestsPerSecond: Double, burst: Double? = nil) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst ?? requestsPerSecond * 2
    }

    public static let standard = RateLimit(requestsPerSecond: 100)
    public static let off = RateLimit(requestsPerSecond: 0)

    public var isOff: Bool { requestsPerSecond <= 0 }

    public var description: String {
        isOff ? "off" : "\(Self.format(requestsPerSecond))/s, burst \(Self.format(burst))"
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
