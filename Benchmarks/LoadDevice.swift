import SyncAuth

/// One simulated device of the load benchmark: its user, the scopes its token grants, the token
/// (HS256, minted in-process with the server's secret, as the app's auth server would), and the
/// deviceId the server gave it.
///
/// The population, for `count` devices: two devices per user (a phone and a laptop), users in
/// teams of ten (so twenty devices a team), each token granting `user:uN` and `team:tK`. A write
/// goes to the team's scope four times in five (a shared list: nineteen other devices see it) and
/// to the user's own scope otherwise (private notes: the user's other device sees it), so most
/// writes fan out like a small team's shared work and some stay between one person's devices.
struct LoadDevice: Sendable {
    let index: Int
    let user: String
    let userScope: String
    let teamScope: String
    let token: String
    var id = ""

    var scopes: [String] { [userScope, teamScope] }

    static let devicesPerUser = 2
    static let usersPerTeam = 10

    static func population(_ count: Int, signer: TokenSigner, now: Int64, prefix: String = "u", team: ((Int) -> String)? = nil) -> [LoadDevice] {
        (0..<count).map { index in
            let user = index / devicesPerUser
            let userScope = "user:\(prefix)\(user)"
            let teamScope = team?(index) ?? "team:t\(user / usersPerTeam)"
            let token = signer.sign(TokenClaims(subject: "\(prefix)\(user)", scopes: [userScope, teamScope], expiresAt: now + 3_600, issuedAt: now))
            return LoadDevice(index: index, user: "\(prefix)\(user)", userScope: userScope, teamScope: teamScope, token: token)
        }
    }
}
