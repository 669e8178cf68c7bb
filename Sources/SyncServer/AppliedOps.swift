import SyncProtocol

/// What applying a packet's ops did (each store's `apply`, inside the packet's transaction): the
/// opIds logged, in order, the ones skipped because their device logged them before, and the log's
/// last seq after them.
struct AppliedOps: Sendable, Equatable {
    var applied: [String] = []
    var duplicates: [String] = []
    var cursor = 0

    /// The answer to the push that applied them.
    var outcome: PushOutcome { .applied(applied: applied, duplicates: duplicates, cursor: cursor) }

    /// What the commit logged: what a device writes is filed under its own log keys (its scopes
    /// are checked before and after every op), so only pulls reading one of them need to look.
    func growth(by device: DeviceIdentity) -> LogGrowth {
        applied.isEmpty ? .nothing : .filed(keys: device.logKeys)
    }
}
