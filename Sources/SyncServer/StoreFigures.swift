/// What the store holds now, for the metrics: the same on every server sharing it.
public struct StoreFigures: Sendable, Equatable {
    /// Packets of every device held, waiting for the packet they depend on.
    public var heldPackets: Int
    /// The last seq ever given: every op ever logged, by any server, compacted or not.
    public var lastSeq: Int
    /// Every log entry at or below it has been compacted away.
    public var compactedThrough: Int

    public init(heldPackets: Int, lastSeq: Int, compactedThrough: Int) {
        self.heldPackets = heldPackets
        self.lastSeq = lastSeq
        self.compactedThrough = compactedThrough
    }

    /// Entries in the op log now: seqs are given one after another, with no holes.
    public var logEntries: Int { lastSeq - compactedThrough }
}
