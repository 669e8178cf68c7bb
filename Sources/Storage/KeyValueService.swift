import Bridge
import Engine
import JSON
import KeyValueStore

/// The `kv` target (contract `services/kv.json`): a key-value store with buckets,
/// metadata, expiry, index columns for queries and an in-memory cache of decoded values.
///
/// ```js
/// await Hybrid.call("kv", "set", { bucket: "feed", key: "1000", value: { title: "hi", at: 17 } });
/// const entry = await Hybrid.call("kv", "get", { bucket: "feed", key: "1000" }); // {value, metadata, createdAt, updatedAt, expiresAt}
/// ```
///
/// `get` runs inline on the JS thread: a cache hit is a dictionary look-up, and a miss one primary
/// key read on the store's own WAL reader connection, which never waits for the writer. Everything
/// else runs on a worker.
public struct KeyValueService: BridgeService {
    public let target = "kv"
    /// This run's stores, shared with whatever else of the run uses the app's kv file
    /// (`localStorage`): another app in the same process has its own.
    private let stores: KeyValueStores
    private let commits: KeyValueCommitCounters

    public init(stores: KeyValueStores = KeyValueStores()) {
        self.stores = stores
        commits = KeyValueCommitCounters(stores: stores)
    }

    /// `commits` moves at every commit to the app's store (a `localStorage` write included):
    /// `Hybrid.kv.get` keeps a read cache in JS and drops it when the counter moves, so a hit
    /// never crosses the bridge.
    public func sharedCounters(for app: AppContext) -> [String: SharedCounter] {
        ["commits": commits.counter(directory: app.dataDirectory)]
    }

    public var actions: [String: ServiceAction] {
        [
            "set": .worker(KeyValueSetParams.self) { call, params in
                try await bridged {
                    let entry = try await store(call).set(params.item)
                    return ["createdAt": .number(entry.createdAt), "updatedAt": .number(entry.updatedAt),
                            "expiresAt": entry.expiresAt.map(JSONValue.number) ?? .null]
                }
            },
            "setMany": .worker(KeyValueSetManyParams.self) { call, params in
                try await bridged {
                    ["written": .number(Double(try await store(call).setMany(params.items)))]
                }
            },
            "get": .inlineAnswer(KeyValueGetParams.self) { call, params in
                try bridged {
                    Self.serviceAnswer(try store(call).getJSON(bucket: params.bucket, key: params.key))
                }
            },
            // One crossing for many reads: Hybrid.kv.get batches the misses of one turn this way.
            "getMany": .inlineAnswer(KeyValueGetManyParams.self) { call, params in
                try bridged {
                    let store = try store(call)
                    var answers: [KeyValueStore.Answer?] = []
                    answers.reserveCapacity(params.items.count)
                    for item in params.items {
                        answers.append(try store.getJSON(bucket: item.bucket, key: item.key))
                    }
                    return try Self.entriesAnswer(answers)
                }
            },
            "delete": .worker(KeyValueDeleteParams.self) { call, params in
                try await bridged {
                    let deleted = try await store(call).delete(bucket: params.bucket, key: params.key)
                    return ["deleted": .bool(deleted)]
                }
            },
            "keys": .worker(KeyValueKeysParams.self) { call, params in
                try await bridged {
                    let keys = try await store(call).keys(bucket: params.bucket, prefix: params.prefix, limit: params.limit)
                    return ["keys": .array(keys.map(JSONValue.string))]
                }
            },
            "defineIndex": .worker(KeyValueDefineIndexParams.self) { call, params in
                try await bridged {
                    let indexed = try await store(call).defineIndex(bucket: params.bucket, columns: .object(params.columns), from: params.from)
                    return ["indexed": .number(Double(indexed))]
                }
            },
            "query": .worker(KeyValueQueryParams.self) { call, params in
                try await bridged {
                    let items = try await store(call).query(bucket: params.bucket, where: params.filter.map(JSONValue.object),
                                                            orderBy: params.orderBy, limit: params.limit.map { .number(Double($0)) })
                    return ["items": .array(items)]
                }
            },
        ]
    }

    /// What `get` answers for what the store found: null, the entry, or its JSON text.
    static func serviceAnswer(_ found: KeyValueStore.Answer?) -> ServiceAnswer {
        switch found {
        case nil: .value(.null)
        case .entry(let entry)?: .value(entry.jsonValue)
        case .jsonText(let text)?: .jsonText(text)
        }
    }

    /// `{"entries": [...]}` as JSON text when every entry is text or null; else (an entry whose
    /// value is bytes) as a value.
    static func entriesAnswer(_ answers: [KeyValueStore.Answer?]) throws -> ServiceAnswer {
        var text: [UInt8] = Array(#"{"entries":["#.utf8)
        for (i, answer) in answers.enumerated() {
            if i > 0 { text.append(UInt8(ascii: ",")) }
            switch answer {
            case nil: text.append(contentsOf: "null".utf8)
            case .jsonText(let entry)?: text.append(contentsOf: entry)
            case .entry?:
                return .value(["entries": .array(try answers.map { try serviceAnswer($0).value() })])
            }
        }
        text.append(contentsOf: "]}".utf8)
        return .jsonText(text)
    }

    /// The app's kv store, capped at its quota (`quotas.kvBytes`).
    private func store(_ call: ServiceCall) throws -> KeyValueStore {
        let store = try stores.store(directory: call.app.dataDirectory)
        try store.center.limit(bytes: call.app.quotas.kvBytes)
        return store
    }
}
