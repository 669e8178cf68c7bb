/// What an operation does to the materialized state; see ``OperationFold`` for the exact rule.
public enum SyncOperationType: String, Sendable, CaseIterable {
    case insert
    case update
    case delete
    /// One op that changes every live row of a table matching a filter ("mark every task due before
    /// X done"), so such a change travels and is logged once, not once per row.
    case batch
}
