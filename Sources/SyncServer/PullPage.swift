import JSON
import SyncProtocol

/// One page of the log after a cursor.
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
}

extension PullPage {
    /// `device`'s page from `found`: the entries it may see after `after`, in seq order, read one
    /// past `limit` when there is one, so that ``more`` is known. Each op as the device's scopes
    /// show it (``LogEntry/operation(for:)``), whether the store or memory (``RecentLog``) read it.
    init(found: [LogEntry], after: Int, limit: Int, for device: DeviceIdentity) throws {
        let ops = try found.prefix(limit).map { try $0.operation(for: device) }
        self.init(ops: ops, cursor: ops.last?.seq ?? after, more: found.count > limit, scopes: device.scopes)
    }

    /// Refuses (`compacted`, 410) a pull after `after` when ops up to `compactedThrough` were
    /// compacted away: the device starts again from a snapshot.
    static func check(after: Int, compactedThrough: Int) throws {
        if after < compactedThrough {
            throw SyncServerError(.compacted, "after: ops up to \(compactedThrough) were compacted; start again from GET /v1/snapshot",
                                  path: "/after")
        }
    }
}
