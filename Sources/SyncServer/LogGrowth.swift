/// Whether a writing step of the store logged ops, and under which log keys (``LogKey``): what a
/// store that announces its own commits (``SyncStoreBackend/announce(keys:)``) tells its held
/// pulls after the commit.
enum LogGrowth: Sendable, Equatable {
    /// Nothing logged: a packet held, rejected, replayed, or all of its ops already logged.
    case nothing
    /// Ops logged under `keys`, those of the device that wrote them (nil: any key, a device that
    /// sees every scope).
    case filed(keys: [String]?)
}
