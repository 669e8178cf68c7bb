/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, fast generator whose whole state is one
/// `UInt64`, so a seed printed by a failing test is all it takes to replay the same decisions.
///
/// Not for anything that needs unpredictability; only for reproducible schedules.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = Double.random(in: 0..<1, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniformly in `0..<1` from the top 53 bits of the next output: one output per call,
    /// always, so the stream stays aligned whatever the caller does with the value.
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
