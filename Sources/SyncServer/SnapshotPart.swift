/// Which rows one snapshot request reads, so that a device can fetch a large state page by page and
/// a newly granted scope on its own (`GET /v1/snapshot?part=...`).
public enum SnapshotPart: Sendable, Equatable {
    /// The rows of one scope: `part=scope:team:t1`.
    case scope(String)
    /// The user's rows of tables without a scope column: `part=user`.
    case user
    /// Every row the device may see (all parts; everything, for a device of an insecure server).
    case all

    public init?(query: String) {
        if query == "user" { self = .user } else if query == "all" { self = .all } else if query.hasPrefix("scope:"), query.count > 6 {
            self = .scope(String(query.dropFirst(6)))
        } else {
            return nil
        }
    }
}
