import JSON

/// Where a patch server keeps apps, patches, votes and its audit log. Every change that a
/// publisher makes is written with its audit entry in one transaction. Two stores stand behind
/// it: ``SQLitePatchStore`` (one server, one file) and ``PostgresPatchStore`` (any number of
/// servers over one database); what must happen once across servers (a version published, a
/// vote, a halt) is decided by the store, in the transaction that writes it.
public protocol PatchStore: Sendable {
    func putApp(_ app: String, keys: [String], subject: String, at: String) async throws
    func keys(app: String) async throws -> [String]?
    /// Stores a verified patch; throws 409 when that version exists.
    func publish(_ release: PatchRelease, file: String, sources: [String: String], subject: String, at: String) async throws
    func release(app: String, patchVersion: Int) async throws -> PatchRelease?
    /// Changes a patch's rollout or state, with the audit entry, when its stored state is still
    /// `expected` (the state the change was decided on); false, having written nothing, when
    /// another change came first (through this server or another over the same database).
    func update(_ release: PatchRelease, expecting expected: PatchRelease.State, action: String, details: String, subject: String,
                at: String) async throws -> Bool
    func addRevocation(app: String, patchVersion: Int, revocation: String, subject: String, reason: String, at: String) async throws
    /// Active patches of a channel and base version above `above`, newest first.
    func candidates(app: String, channel: String, baseVersion: String, above: Int) async throws -> [PatchRelease]
    /// A published patch's file.
    func file(app: String, patchVersion: Int) async throws -> String?
    /// A module source the server holds with that SHA-256 (from any patch of the app).
    func source(app: String, module: String, sha256: String) async throws -> String?
    func revocations(app: String) async throws -> [String]
    /// Records a device's vote; false when it had already voted so (or may not yet).
    func vote(app: String, patchVersion: Int, deviceId: String, event: String, reason: String?, at: Int) async throws -> Bool
    /// Devices that applied the patch, and of them those that rolled it back.
    func rollbackFigures(app: String, patchVersion: Int) async throws -> (applied: Int, rolledBack: Int)
    func funnel(app: String, patchVersion: Int) async throws -> PatchFunnel
    func releases(app: String) async throws -> [PatchRelease]
    func audit(app: String) async throws -> [PatchAuditEntry]
    /// Every app with keys on this server, by name.
    func apps() async throws -> [String]
    /// A patch's confirmations and rollbacks by the minute they were reported, oldest first.
    func timeline(app: String, patchVersion: Int) async throws -> [PatchTimelineMinute]
    /// `sqlite` or `postgres`, as `GET /v1/health` names the store.
    var kind: String { get }
    /// One trivial round trip through the store (`SELECT 1`), which `GET /v1/health` times.
    func ping() async throws
    func close() async
}
