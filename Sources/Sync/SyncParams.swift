import Bridge
import CurlTransport

// The params of the `sync` target's actions (contract `services/sync.json`), decoded once per
// call. Every action names the database it syncs.

/// `sync.run`, `sync.status` and `sync.conflicts`: the database only.
struct SyncDatabaseParams: ActionParams {
    let database: String

    init(from params: ParamsReader) throws(BridgeError) {
        database = try params.required("database")
    }
}

/// `sync.connect`.
struct SyncConnectParams: ActionParams {
    let database: String
    /// The sync server's base URL; `URLTarget` checks it.
    let server: String
    /// The app's name when nil.
    let deviceName: String?
    /// A JSON Web Token from the app's auth server; nil for an insecure server.
    let token: String?

    init(from params: ParamsReader) throws(BridgeError) {
        database = try params.required("database")
        server = try params.required("server")
        deviceName = try params.optional("deviceName")
        token = try params.optional("token")
        // It travels as a header on every request: a line break would smuggle in headers of its own.
        if let token, let problem = TransferRequest.headerProblem(name: "Authorization", value: "Bearer " + token) {
            throw BridgeError.badParams("/token", "the token cannot travel in a header: \(problem)")
        }
    }
}

/// `sync.retry`.
struct SyncRetryParams: ActionParams {
    let database: String
    /// Every failed operation when nil.
    let opIds: [String]?

    init(from params: ParamsReader) throws(BridgeError) {
        database = try params.required("database")
        opIds = try params.optional("opIds")
    }
}

/// `sync.resolve`.
struct SyncResolveParams: ActionParams {
    enum Keep: String, CaseIterable, ParamValue {
        case local, remote
    }

    let database: String
    let conflictId: String
    let keep: Keep

    init(from params: ParamsReader) throws(BridgeError) {
        database = try params.required("database")
        conflictId = try params.required("conflictId")
        keep = try params.required("keep")
    }
}

/// `sync.watch`.
struct SyncWatchParams: ActionParams {
    let database: String
    /// The seq last seen: 0 answers with the first news.
    let since: Int
    let timeoutMs: Int

    init(from params: ParamsReader) throws(BridgeError) {
        database = try params.required("database")
        since = try params.optional("since") ?? 0
        timeoutMs = try params.optional("timeoutMs") ?? LongPoll.defaultTimeoutMs
    }
}

/// `sync.live`: one turn of the live loop `Hybrid.subscribe` repeats.
struct SyncLiveParams: ActionParams {
    let database: String
    /// How long the server may hold the turn's pull when it has nothing new.
    let waitMs: Int

    static let defaultWaitMs = 25_000

    init(from params: ParamsReader) throws(BridgeError) {
        database = try params.required("database")
        waitMs = try params.optional("waitMs") ?? Self.defaultWaitMs
    }
}
