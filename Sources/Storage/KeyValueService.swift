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
    /// This run's stores: another app in the same process has its own.
    private let stores = KeyValueStores()

    public init() {}

    /// `commits` moves at every commit to the app's store: `Hybrid.kv.get` keeps a read cache in
    /// JS and drops it when the counter moves, so a hit never crosses the bridge.
    public func sharedCounters(for app: AppContext) -> [String: SharedCounter] {
        ["commits": stores.commits(directory: app.dataDirectory)]
    }

    public var actions: [String: ServiceAction] {
        [
            "set": .worker { call in
                try await bridged {
                    let entry = try await store(call).set(item(call.params, path: ""))
                    return ["createdAt": .number(entry.createdAt), "updatedAt": .number(entry.updatedAt),
                            "expiresAt": entry.expiresAt.map(JSONValue.number) ?? .null]
                }
            },
            "setMany": .worker { call in
                try await bridged {
                    let bucket = call.params["bucket"]?.stringValue ?? ""
                    let list = call.params["items"]?.arrayValue ?? []
                    var items: [KeyValueStore.Item] = []
                    items.reserveCapacity(list.count)
                    for (i, value) in list.enumerated() { items.append(item(value, path: "/items/\(i)", bucket: bucket)) }
                    return ["written": .number(Double(try await store(call).setMany(items)))]
                }
            },
            "get": .inlineAnswer { call in
                try bridged {
                    Self.serviceAnswer(try store(call).getJSON(bucket: call.params["bucket"]?.stringValue ?? "", key: call.params["key"]?.stringValue ?? ""))
                }
            },
            // One crossing for many reads: Hybrid.kv.get batches the misses of one turn this way.
            "getMany": .inlineAnswer { call in
                try bridged {
                    let store = try store(call)
                    let items = call.params["items"]?.arrayValue ?? []
                    var answers: [KeyValueStore.Answer?] = []
                    answers.reserveCapacity(items.count)
                    for item in items {
                        answers.append(try store.getJSON(bucket: item["bucket"]?.stringValue ?? "", key: item["key"]?.stringValue ?? ""))
                    }
                    return try Self.entriesAnswer(answers)
                }
            },
            "delete": .worker { call in
                try await bridged {
                    let deleted = try await store(call).delete(bucket: call.params["bucket"]?.stringValue ?? "", key: call.params["key"]?.stringValue ?? "")
                    return ["deleted": .bool(deleted)]
                }
            },
            "keys": .worker { call in
                try await bridged {
                    let keys = try await store(call).keys(bucket: call.params["bucket"]?.stringValue ?? "", prefix: call.params["prefix"]?.stringValue,
                                                          limit: call.params["limit"]?.intValue)
                    return ["keys": .array(keys.map(JSONValue.string))]
                }
            },
            "defineIndex": .worker { call in
                try await bridged {
                    let indexed = try await store(call).defineIndex(bucket: call.params["bucket"]?.stringValue ?? "",
                                                                    columns: call.params["columns"] ?? .null, from: call.params["from"] ?? .null)
                    return ["indexed": .number(Double(indexed))]
                }
            },
            "query": .worker { call in
                try await bridged {
                    let items = try await store(call).query(bucket: call.params["bucket"]?.stringValue ?? "", where: call.params["where"],
                                                            orderBy: call.params["orderBy"], limit: call.params["limit"])
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

    private func store(_ call: ServiceCall) throws -> KeyValueStore {
        try stores.store(directory: call.app.dataDirectory)
    }

    /// The item `params` describe; `bucket` when it names none (setMany's items take the call's).
    /// Read in place: copying each item's object to add the bucket cost more than storing it.
    private func item(_ params: JSONValue, path: String, bucket: String = "") -> KeyValueStore.Item {
        KeyValueStore.Item(bucket: params["bucket"]?.stringValue ?? bucket, key: params["key"]?.stringValue ?? "",
                           value: params["value"] ?? .null, metadata: params["metadata"] ?? .null,
                           ttlSeconds: params["ttlSeconds"]?.numberValue, path: path)
    }
}
