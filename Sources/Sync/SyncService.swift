// The Sync module: the `sync` service, the client of the reference sync server. The
// bookkeeping (to-sync, to-execute, packets, conflicts) lives in SyncClient, written at
// Persistence's one write path; this module talks to the server, through CurlTransport, and never
// touches SQL.
import Bridge
import CurlTransport
import JSON
import Persistence
import SyncClient
import SyncProtocol

/// The `sync` target (contract `services/sync.json`).
///
/// ```js
/// await Hybrid.call("sync", "connect", { database: "tasks", server: "http://127.0.0.1:8390" });
/// await Hybrid.call("sync", "run", { database: "tasks" });  // { pushed, pulled, applied, conflicts, held, failed }
/// ```
public struct SyncService: BridgeService {
    public let target = "sync"
    private let registry: DataCenterRegistry

    /// Moves on whenever a database's sync state may have changed (a run, a retry, a resolve, a
    /// connect), for `sync.watch`; the status itself is read from the database.
    private let stateChanges = LongPollBoard(initial: ())
    /// Runs of one database, one at a time.
    private let runs = SyncRunLock()
    /// When `sync.live` tries a server that was away again, per database.
    private let backoff = SyncBackoff()

    /// `registry` is the app run's, shared with the storage service; its databases must journal
    /// sync (``SyncDatabaseJournal``) for their synced tables to be written at all.
    public init(registry: DataCenterRegistry = DataCenterRegistry(journal: SyncDatabaseJournal.self)) { self.registry = registry }

    public var actions: [String: ServiceAction] {
        [
            "connect": .worker(SyncConnectParams.self) { call, params in try await connect(call, params) },
            "run": .worker(SyncDatabaseParams.self) { call, params in try await run(call, params.database) },
            "status": .worker(SyncDatabaseParams.self) { call, params in try bridged { try syncReplica(call, params.database).status() } },
            "retry": .worker(SyncRetryParams.self) { call, params in
                let count = try bridged { try syncReplica(call, params.database).retry(opIds: params.opIds) }
                stateChanges.update(key(call, params.database))
                return ["requeued": .number(Double(count))]
            },
            "conflicts": .worker(SyncDatabaseParams.self) { call, params in
                ["conflicts": .array(try bridged { try syncReplica(call, params.database).conflicts() })]
            },
            "resolve": .worker(SyncResolveParams.self) { call, params in
                let (table, dataId) = try bridged {
                    try syncReplica(call, params.database).resolve(conflictId: params.conflictId, keepLocal: params.keep == .local)
                }
                stateChanges.update(key(call, params.database))
                return ["resolved": true, "table": .string(table), "dataId": .string(dataId), "keep": .string(params.keep.rawValue)]
            },
            "live": .worker(SyncLiveParams.self) { call, params in try await live(call, params) },
            "watch": .worker(SyncWatchParams.self) { call, params in
                let version = await stateChanges.wait(key(call, params.database), since: params.since, timeoutMs: params.timeoutMs)
                return ["seq": .number(Double(version.seq)), "status": try bridged { try syncReplica(call, params.database).status() }]
            },
        ]
    }

    private func syncReplica(_ call: ServiceCall, _ database: String) throws(PersistenceError) -> SyncReplica {
        try SyncReplica(center: registry.dataCenter(directory: call.app.dataDirectory, name: database, create: false))
    }

    private func key(_ call: ServiceCall, _ database: String) -> String { call.app.dataDirectory + "\n" + database }

    private func connect(_ call: ServiceCall, _ params: SyncConnectParams) async throws(BridgeError) -> JSONValue {
        let replica = try bridged { try syncReplica(call, params.database) }
        let server = params.server
        do { _ = try URLTarget(server) } catch { throw BridgeError.badParams("/server", error.message) }
        if let existing = try bridged({ try replica.connection() }) {
            guard existing.server == server else {
                throw BridgeError.badParams("/server", "database \"\(replica.center.name)\" already syncs with \(existing.server); one database syncs with one server")
            }
            // A new token for the same device: the server reads its scopes on the next request.
            if let token = params.token, token != existing.token {
                try bridged { try replica.updateToken(token) }
                stateChanges.update(key(call, params.database))
            }
            return ["deviceId": .string(existing.deviceId), "server": .string(existing.server), "registered": false]
        }
        let client = SyncServerClient(server: server, token: params.token, allowHost: call.app.allowsHost)
        let name = params.deviceName ?? call.app.name
        let answer = try await client.post("/v1/devices", body: JSONWriter.write(["name": .string(name)]))
        let asked = "registering with \(server)"
        guard answer.status == 201 || answer.status == 200 else {
            throw BridgeError.failed(reason: answer.status == 401 ? "unauthorized" : "server", "\(asked) answered \(answer.status): \(answer.message)",
                                     details: ["status": .number(Double(answer.status))])
        }
        // A server with auth binds the device to the token's user, and the token is what later
        // requests carry; an insecure one hands out a device token.
        let registered: RegisteredDevice
        do {
            registered = try answer.decoded("device registration", RegisteredDevice.decode)
        } catch {
            throw SyncServerClient.failure(asked, answer, unreadable: error)
        }
        guard let token = params.token ?? registered.token else {
            throw SyncServerClient.failure(asked, answer, unreadable: SyncWireError("device registration: token: expected a device token "
                + "(the server has no auth, and sync.connect was given no token), missing", path: "/token"))
        }
        let deviceId = registered.deviceId
        try bridged { try replica.connect(SyncReplica.Connection(server: server, deviceId: deviceId, token: token)) }
        stateChanges.update(key(call, params.database))
        return ["deviceId": .string(deviceId), "server": .string(server), "registered": true]
    }

    /// One turn of the live loop (``SyncLive``). A server that is away is no error: the turn
    /// answers `online: false` with the reason at once, and the next one waits out a backoff first.
    private func live(_ call: ServiceCall, _ params: SyncLiveParams) async throws(BridgeError) -> JSONValue {
        let replica = try bridged { try syncReplica(call, params.database) }
        guard let connection = try bridged({ try replica.connection() }) else {
            throw BridgeError.failed(reason: "not_connected", "database \"\(replica.center.name)\" is not connected to a sync server; call sync.connect first")
        }
        let runKey = key(call, params.database)
        try await backoff.wait(runKey)
        var liveClient = SyncServerClient(server: connection.server, token: connection.token, allowHost: call.app.allowsHost)
        // The held pull answers by waitMs; the transfer's own limit leaves room for a slow network.
        liveClient.timeoutMs += params.waitMs
        let client = liveClient
        let run: @Sendable (Bool, SyncRun.Prefetched?) async throws(BridgeError) -> SyncRun.Totals = {
            (pulls: Bool, prefetched: SyncRun.Prefetched?) async throws(BridgeError) -> SyncRun.Totals in
            defer { stateChanges.update(runKey) }
            var totals = SyncRun.Totals()
            _ = try await runs.serialized(runKey) { () async throws(BridgeError) -> JSONValue in
                totals = try await SyncRun(replica: replica, connection: connection, client: client, pulls: pulls, prefetched: prefetched).run()
                return .null
            }
            return totals
        }
        do {
            let totals = try await SyncLive(replica: replica, connection: connection, client: client, waitMs: params.waitMs, run: run).turn()
            backoff.succeeded(runKey)
            guard case .object(var event) = totals.json else { return totals.json }
            event["online"] = true
            return .object(event)
        } catch where SyncBackoff.isServerAway(error) {
            let delay = backoff.failed(runKey)
            guard case .object(var event) = SyncRun.Totals().json else { throw error }
            event["online"] = false
            event["reason"] = error.details?["reason"] ?? .string("server")
            event["message"] = .string(error.message)
            event["retryInMs"] = .number(Double(delay))
            return .object(event)
        }
    }

    private func run(_ call: ServiceCall, _ database: String) async throws(BridgeError) -> JSONValue {
        let replica = try bridged { try syncReplica(call, database) }
        guard let connection = try bridged({ try replica.connection() }) else {
            throw BridgeError.failed(reason: "not_connected", "database \"\(replica.center.name)\" is not connected to a sync server; call sync.connect first")
        }
        let client = SyncServerClient(server: connection.server, token: connection.token, allowHost: call.app.allowsHost)
        let runKey = key(call, database)
        defer { stateChanges.update(runKey) }
        // One run per database at a time: a second caller waits for the first to finish, then runs.
        return try await runs.serialized(runKey) { () async throws(BridgeError) -> JSONValue in
            try await SyncRun(replica: replica, connection: connection, client: client, pulls: replica.pulls).run().json
        }
    }
}
