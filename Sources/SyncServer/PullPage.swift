import JSON

/// One page of the log after a cursor.
///
/// Wire form: `{"ops": [...], "cursor", "more"}`; `cursor` is the last seq returned (or the `after`
/// asked for, when none), so cursors only move forward.
public struct PullPage: Sendable, Equatable {
    public var ops: [LoggedOperation]
    public var cursor: Int
    /// Whether ops after ``cursor`` exist: pull again from it.
    public var more: Bool

    public init(ops: [LoggedOperation], cursor: Int, more: Bool) {
        self.ops = ops
        self.cursor = cursor
        self.more = more
    }

    public var json: JSONValue {
        ["ops": .array(ops.map(\.json)), "cursor": .number(Double(cursor)), "more": .bool(more)]
    }
}
