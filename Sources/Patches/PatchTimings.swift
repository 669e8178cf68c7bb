/// How long the phases of one apply took, in nanoseconds (`hybrid-bench patch` prints them).
public struct PatchTimings: Sendable, Equatable {
    /// Hashes and the Ed25519 signature.
    public var verify: UInt64 = 0
    /// The syntax check in the scratch context, off the JS thread.
    public var compile: UInt64 = 0
    /// From posting the swap to its end, waiting for the JS thread included.
    public var swap: UInt64 = 0
    /// The JS thread's time in the swap task: what the app's other work waited.
    public var pause: UInt64 = 0
    /// The patch file and the ledger written (and synced) to the data dir.
    public var ledger: UInt64 = 0
    public var total: UInt64 = 0

    public init() {}
}
