import SyncAuth

/// Who a sync request speaks for, as ``SyncAuthenticator`` found it and put it on the request
/// context, before anything else the request costs: the routes then check the `deviceId` it
/// claims against it (``SyncEndpoints/identify(_:claimed:path:required:)``).
enum SyncCaller: Sendable {
    /// A verified JSON Web Token: its user, and the scopes it grants.
    case user(TokenClaims)
    /// On an insecure server, the device whose device token the request carries.
    case device(DeviceIdentity)
    /// On an insecure server, a registration: anyone may register, by design.
    case anyone

    var claims: TokenClaims? {
        if case .user(let claims) = self { return claims }
        return nil
    }
}
