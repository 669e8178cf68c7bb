import JSON

/// One page of the log after a cursor (`GET /v1/pull`).
///
/// Wire form: `{"ops": [...], "cursor", "more", "scopes"?}`; `cursor` is the last seq returned (or
/// the `after` asked for, when none), so cursors only move forward. `scopes` are those the device's
/// token grants (absent on an insecure server): a client that sees a scope appear fetches its rows
/// from a snapshot, and drops the rows of one that disappeared.
public struct PullPage: Sendable, Equatable {
    public var ops: [LoggedOperation]
    public var cursor: Int
    /// Whether ops after ``cursor`` exist: pull again from it.
    public var more: Bool
    public var scopes: [String]?

    public init(ops: [LoggedOperation], cursor: Int, more: Bool, scopes: [String]? = nil) {
        self.ops = ops
        self.cursor = cursor
        self.more = more
        self.scopes = scopes
    }

    public var json: JSONValue {
        var object: JSONObject = ["ops": .array(ops.map(\.json)), "cursor": .number(Double(cursor)), "more": .bool(more)]
        if let scopes { object["scopes"] = .array(scopes.map(JSONValue.string)) }
        return .object(object)
    }

    /// Reads a pull answer, refusing it at the first field at fault.
    public static func decode(_ body: JSONValue) throws(SyncWireError) -> PullPage {
        let fields = try FieldReader(body, at: "")
        let elements = try fields.array("ops")
        var ops: [LoggedOperation] = []
        ops.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            ops.append(try LoggedOperation.decode(element, at: JSONPointer.appending(fields.path("ops"), index: index)))
        }
        return PullPage(ops: ops, cursor: try fields.integer("cursor"), more: try fields.bool("more"), scopes: try fields.optionalTexts("scopes"))
    }
}
