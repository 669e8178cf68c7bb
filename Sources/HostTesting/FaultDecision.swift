/// What one connection is to do with its request, decided on arrival by `FaultSchedule`.
struct FaultDecision: Sendable {
    let event: FaultEvent
    /// For a `reorder`: the hold to wait on before forwarding.
    let hold: ReorderHold?
    /// A request held by an earlier `reorder`, to release once this one has been forwarded.
    let releasing: ReorderHold?

    var kind: FaultKind { event.kind }
}
