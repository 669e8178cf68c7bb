/// What one compaction of the op log did.
public struct Compaction: Sendable, Equatable {
    /// Log entries removed.
    public var removed: Int
    /// Every entry at or below this seq is gone: a pull after a smaller cursor is answered 410, and
    /// the device starts again from a snapshot.
    public var compactedThrough: Int

    public init(removed: Int, compactedThrough: Int) {
        self.removed = removed
        self.compactedThrough = compactedThrough
    }
}
