import SyncProtocol

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
