import SyncProtocol

/// Which rows of the materialized state a snapshot reads, ``SnapshotPart`` for one device, decided
/// without a database; each store writes it as its SQL condition on `sync_row`.
enum SnapshotRows: Sendable, Equatable {
    /// One scope's rows: partition "" and that scope.
    case scope(String)
    /// The user's rows of tables without a scope column: the user's partition, no scope.
    case user(String)
    /// The rows of the granted scopes and the user's own.
    case granted(scopes: [String], user: String)
    /// Every row: a device that sees every scope, or the operator.
    case all

    /// Refused (`forbidden`, reason `scope`) for a scope the device's token does not grant.
    init(_ part: SnapshotPart, for device: DeviceIdentity) throws {
        switch part {
        case .scope(let scope):
            guard device.sees(scope: scope) else {
                throw SyncServerError(.forbidden, "part: scope \(scope) is not granted by the token", path: "/part", reason: .scope)
            }
            self = .scope(scope)
        case .user:
            self = .user(device.user)
        case .all:
            self = device.scopes.map { .granted(scopes: $0, user: device.user) } ?? .all
        }
    }
}
