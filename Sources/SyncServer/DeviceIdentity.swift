import HTTPServing
import SyncProtocol

/// Who a request speaks for, once its token has been checked: the device, the user it belongs to,
/// and the scopes that user's token grants.
///
/// A server started with `--insecure-no-auth` hands out device tokens instead: their devices belong
/// to the empty user and see every scope (``scopes`` nil), as every device did before scopes.
///
/// Users and scopes are their bytes, as the database holds them (see ``ByteString``): a token
/// granting `team:caf\u{E9}` sees nothing of `team:cafe\u{301}`, and equality compares bytes too.
public struct DeviceIdentity: Sendable, Equatable {
    public var deviceId: String
    /// The token's `sub`; "" for a device of an insecure server.
    public var user: String
    /// The scopes granted, or nil for every scope.
    public var scopes: [String]?

    public init(deviceId: String, user: String, scopes: [String]?) {
        self.deviceId = deviceId
        self.user = user
        self.scopes = scopes
    }

    /// Whether a row in `scope` is this device's to see and to change: a scope granted byte for byte.
    public func sees(scope: String) -> Bool {
        guard let scopes else { return true }
        let wanted = ByteString(scope)
        return scopes.contains { ByteString($0) == wanted }
    }

    public static func == (lhs: DeviceIdentity, rhs: DeviceIdentity) -> Bool {
        ByteString(lhs.deviceId) == ByteString(rhs.deviceId) && ByteString(lhs.user) == ByteString(rhs.user)
            && ByteString.same(lhs.scopes, rhs.scopes)
    }

    /// The refusal of a device id that is not the token user's device, or no device at all: one
    /// answer for both, so that nobody learns which ids another user's devices have.
    static func noDevice(_ deviceId: String) -> SyncServerError {
        SyncServerError(.forbidden, "deviceId: no device \(deviceId) for this token's user", path: "/deviceId")
    }

    /// The refusal of a packet, pushed or settled, of a device the store has no row of.
    static func unknown(_ deviceId: String) -> SyncServerError {
        SyncServerError(.forbidden, "deviceId: unknown device \(deviceId)", path: "/deviceId")
    }

    /// The log keys this device pulls (see ``LogKey``), or nil for the whole log.
    var logKeys: [String]? {
        scopes.map { $0.map(LogKey.scope) + [LogKey.user(user)] }
    }
}

/// What an entry of the log is filed under, so that a pull reads only its device's entries through
/// an index: `s:SCOPE` for a row of a scoped table, `u:USER` for a row of a table without a scope
/// column (shared by every device of one user). An op that moves a row between scopes is filed
/// under both.
enum LogKey {
    static func scope(_ scope: String) -> String { "s:" + scope }
    static func user(_ user: String) -> String { "u:" + user }
}
