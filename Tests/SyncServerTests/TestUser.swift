import Foundation
import HostTesting
import JSON
import SyncAuth
import SyncProtocol

/// A user of a server with auth, for tests that play one tenant against another: a token for a
/// `sub` and its scopes, signed as the app's auth server would sign it, that ``verifier`` accepts.
struct TestUser: Sendable {
    static let secret = Array("the tenant tests' shared secret".utf8)
    static var verifier: TokenVerifier { TokenVerifier(secret: secret) }

    let subject: String
    let scopes: [String]
    let token: String

    init(_ subject: String, scopes: [String]) {
        self.subject = subject
        self.scopes = scopes
        let now = Int64(Date().timeIntervalSince1970)
        token = TokenSigner(secret: Self.secret).sign(TokenClaims(subject: subject, scopes: scopes, expiresAt: now + 3600, issuedAt: now))
    }
}

extension LocalSyncServer {
    /// Runs `body` against a new server of `store` that verifies ``TestUser`` tokens.
    static func withUsers(store: TestStore, hold: Duration = .seconds(30), _ body: (LocalSyncServer) async throws -> Void) async throws {
        try await with(store: store, hold: hold, tokenVerifier: TestUser.verifier, body)
    }

    /// An op of a table scoped by `column`.
    static func scoped(_ op: SyncOperation, by column: String = "owner") -> SyncOperation {
        var op = op
        op.scopeColumn = column
        return op
    }
}

extension LocalSyncServer {
    /// A new device of `user`; its requests carry the user's token.
    func register(_ user: TestUser) async throws -> TestDevice {
        let reply = try await post("/v1/devices", token: user.token, json: [:])
        guard reply.status == 201, let id = reply.body["deviceId"]?.stringValue else {
            throw TestFailure("registration of a device of \(user.subject) failed: \(reply)")
        }
        return TestDevice(id: id, token: user.token)
    }

    /// The opIds of the ops `device` pulls from `after` on, in seq order.
    func pulledOpIds(_ device: TestDevice, after: Int = 0) async throws -> [String] {
        let reply = try await pull(device, after: after)
        guard reply.status == 200 else { throw TestFailure("pull failed: \(reply)") }
        return reply.body["ops"]?.arrayValue?.compactMap { $0["opId"]?.stringValue } ?? []
    }

    /// The rows of `table` in `device`'s snapshot, by dataId.
    func rows(_ device: TestDevice, table: String = "tasks") async throws -> [String: JSONValue] {
        let reply = try await get("/v1/snapshot?deviceId=\(device.id)", token: device.token)
        guard reply.status == 200 else { throw TestFailure("snapshot failed: \(reply)") }
        let rows = reply.body["tables"]?[table]?.arrayValue ?? []
        return Dictionary(rows.map { ($0["dataId"]?.stringValue ?? "", $0) }, uniquingKeysWith: { $1 })
    }
}
