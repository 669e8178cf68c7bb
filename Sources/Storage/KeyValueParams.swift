import Bridge
import JSON
import KeyValueStore

// The params of the `kv` target's actions (contract `services/kv.json`), decoded once per call.
// `get` and `getMany` are on the hot path: decoding them is the same few member look-ups the
// service made by hand, and builds nothing per item but the decoded array.

/// `kv.set`: one item.
struct KeyValueSetParams: ActionParams {
    let item: KeyValueStore.Item

    init(from params: ParamsReader) throws(BridgeError) {
        item = try KeyValueStore.Item(from: params, bucket: params.required("bucket"))
    }
}

/// `kv.setMany`: items written in one transaction, each in the call's bucket unless it names one.
struct KeyValueSetManyParams: ActionParams {
    /// The params' own values and metadata, not copies: copying each item's object to add the
    /// bucket cost more than storing it.
    let items: [KeyValueStore.Item]

    init(from params: ParamsReader) throws(BridgeError) {
        let bucket: String? = try params.optional("bucket")
        items = try params.required("items") { item throws(BridgeError) in
            // The contract cannot say "a bucket here or for the whole call".
            guard let itemBucket = try item.optional("bucket") ?? bucket else {
                throw BridgeError.badParams(item.path.appending(key: "bucket").pointer, "expected a bucket name, here or for the whole call")
            }
            return try KeyValueStore.Item(from: item, bucket: itemBucket)
        }
    }
}

extension KeyValueStore.Item {
    /// The item `params` describe, in `bucket`, its errors pointing at `params.path`.
    init(from params: ParamsReader, bucket: String) throws(BridgeError) {
        self.init(bucket: bucket, key: try params.required("key"), value: try params.required("value"),
                  metadata: try params.optional("metadata") ?? .null, ttlSeconds: try params.optional("ttlSeconds"),
                  path: params.path.pointer)
    }
}

/// `kv.get`, and each of `kv.getMany`'s items: one entry.
struct KeyValueGetParams: ActionParams {
    let bucket: String
    let key: String

    init(from params: ParamsReader) throws(BridgeError) {
        bucket = try params.required("bucket")
        key = try params.required("key")
    }
}

/// `kv.getMany`: the entries one turn of `Hybrid.kv.get` missed, read in one crossing.
struct KeyValueGetManyParams: ActionParams {
    let items: [KeyValueGetParams]

    init(from params: ParamsReader) throws(BridgeError) {
        items = try params.required("items")
    }
}

/// `kv.delete`: the same fields as `get`.
typealias KeyValueDeleteParams = KeyValueGetParams

/// `kv.keys`.
struct KeyValueKeysParams: ActionParams {
    let bucket: String
    /// Only keys that start with it; every key when nil.
    let prefix: String?
    /// No limit when nil.
    let limit: Int?

    init(from params: ParamsReader) throws(BridgeError) {
        bucket = try params.required("bucket")
        prefix = try params.optional("prefix")
        limit = try params.optional("limit")
    }
}

/// `kv.defineIndex`.
struct KeyValueDefineIndexParams: ActionParams {
    let bucket: String
    /// Column name → type; the store checks both.
    let columns: JSONObject
    /// A dotted path prefix, or one path per column: the store reads either.
    let from: JSONValue

    init(from params: ParamsReader) throws(BridgeError) {
        bucket = try params.required("bucket")
        columns = try params.required("columns")
        from = try params.required("from")
    }
}

/// `kv.query`.
struct KeyValueQueryParams: ActionParams {
    let bucket: String
    /// The `where` filter over the bucket's index columns: every item when nil.
    let filter: JSONObject?
    /// A column or an array of columns, `-` first for descending: the store checks the names.
    let orderBy: JSONValue?
    /// No limit when nil.
    let limit: Int?

    init(from params: ParamsReader) throws(BridgeError) {
        bucket = try params.required("bucket")
        filter = try params.optional("where")
        orderBy = try params.optional("orderBy")
        limit = try params.optional("limit")
    }
}
