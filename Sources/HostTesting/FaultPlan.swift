/// How often each fault happens: one probability per request for each kind, drawn in
/// request-arrival order from the proxy's seeded generator.
///
/// The kinds exclude one another: one draw per request walks `drop`, `dropResponse`, `duplicate`,
/// `delay`, `reorder`, `cut` in that order, so each kind happens with its own probability as long
/// as they add up to at most 1 (past 1, the kinds late in that order get what is left).
///
/// ```swift
/// let plan = FaultPlan(dropResponse: 0.2, delay: 0.1, delayMs: 50...300)
/// let proxy = try FaultProxy(upstreamPort: server.port, seed: 7, plan: plan)
/// ```
public struct FaultPlan: Sendable, Equatable {
    public var drop: Double
    public var dropResponse: Double
    public var duplicate: Double
    public var delay: Double
    public var reorder: Double
    public var cut: Double
    /// The pause of a `delay`, drawn uniformly from this range.
    public var delayMs: ClosedRange<Int>
    /// The longest a `reorder` waits for the next request before going on alone.
    public var holdMs: Int

    public init(drop: Double = 0, dropResponse: Double = 0, duplicate: Double = 0, delay: Double = 0,
                reorder: Double = 0, cut: Double = 0, delayMs: ClosedRange<Int> = 10...100, holdMs: Int = 200) {
        for (name, value) in [("drop", drop), ("dropResponse", dropResponse), ("duplicate", duplicate),
                              ("delay", delay), ("reorder", reorder), ("cut", cut)] {
            precondition((0...1).contains(value), "FaultPlan.\(name): expected a probability in 0...1, got \(value)")
        }
        precondition(delayMs.lowerBound >= 0, "FaultPlan.delayMs: expected milliseconds >= 0, got \(delayMs)")
        precondition(holdMs >= 0, "FaultPlan.holdMs: expected milliseconds >= 0, got \(holdMs)")
        self.drop = drop
        self.dropResponse = dropResponse
        self.duplicate = duplicate
        self.delay = delay
        self.reorder = reorder
        self.cut = cut
        self.delayMs = delayMs
        self.holdMs = holdMs
    }

    /// Every request forwarded faithfully and at once.
    public static let none = FaultPlan()

    /// `rate` (in 0...1) of the requests faulted, spread evenly across the six kinds, with short
    /// delays and holds so that a test under chaos stays quick.
    public static func chaos(rate: Double) -> FaultPlan {
        precondition((0...1).contains(rate), "FaultPlan.chaos(rate:): expected a rate in 0...1, got \(rate)")
        let each = rate / 6
        return FaultPlan(drop: each, dropResponse: each, duplicate: each, delay: each, reorder: each, cut: each,
                         delayMs: 5...100, holdMs: 100)
    }

    /// The kind for a draw `roll` in 0..<1.
    func kind(for roll: Double) -> FaultKind {
        var threshold = 0.0
        for (kind, probability) in [(FaultKind.drop, drop), (.dropResponse, dropResponse), (.duplicate, duplicate),
                                    (.delay, delay), (.reorder, reorder), (.cut, cut)] {
            threshold += probability
            if roll < threshold { return kind }
        }
        return .pass
    }
}
