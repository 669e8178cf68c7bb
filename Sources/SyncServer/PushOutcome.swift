/// What became of a push, as the store decided it.
public enum PushOutcome: Sendable, Equatable {
    /// Applied now, or earlier (a re-push gets the first answer again, `replayed`). `cursor` is the
    /// log's last seq once the packet was applied.
    case applied(applied: [String], duplicates: [String], cursor: Int, replayed: Bool = false)
    /// Stored until `waitingFor` (this device's packet) is applied.
    case held(waitingFor: String)
    /// Refused for good: its dependency never came or was itself rejected, or (held, then settled)
    /// one of its ops, `opId`, was outside the device's scopes.
    case rejected(reason: String, opId: String? = nil)
}
