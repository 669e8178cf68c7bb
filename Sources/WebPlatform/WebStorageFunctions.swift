import Engine
import KeyValueStore
import Persistence

/// The native half of `js/web/storage.js`: `localStorage`'s items in the app's kv store
/// (``WebStorageBucket``), read once when the script first needs them and written through at
/// each change, the change committed before the call returns. Strings go in as UTF-16 code
/// units and come back as JSON text with escapes, so a lone surrogate survives the round trip.
struct WebStorageFunctions {
    let options: WebPlatformOptions

    var natives: [String: NativeFunctionBody] {
        let quota = Double(options.storageQuotaBytes)
        return [
            "quota": { args in args.context.number(quota) },
            "load": load,
            "set": set,
            "remove": remove,
            "clear": clear,
        ]
    }

    /// `native.load()`: every stored item, in the order its key was first set, as one array
    /// `[key, value, key, value, ...]`, parsed from the JSON text the bucket gives.
    func load(_ args: NativeArguments) throws -> ScriptValue? {
        let text: [UInt8]
        do { text = try bucket().itemsJSON() } catch { throw failure(error, doing: "read") }
        guard let items = args.context.jsValue(fromJSONText: text) else {
            throw NativeFunctionError("localStorage: the items read from the kv file are not a JSON array", name: "Error")
        }
        return items
    }

    /// `native.set(key, value)`: both strings already.
    func set(_ args: NativeArguments) throws -> ScriptValue? {
        let bucket = try bucket()
        do {
            try args.context.withUTF16(of: args[0]) { key in
                try args.context.withUTF16(of: args[1]) { value in
                    try bucket.set(key: key, value: value)
                }
            }
        } catch {
            throw failure(error, doing: "write")
        }
        return nil
    }

    /// `native.remove(key)`.
    func remove(_ args: NativeArguments) throws -> ScriptValue? {
        let bucket = try bucket()
        do {
            try args.context.withUTF16(of: args[0]) { key in try bucket.remove(key: key) }
        } catch {
            throw failure(error, doing: "write")
        }
        return nil
    }

    /// `native.clear()`.
    func clear(_ args: NativeArguments) throws -> ScriptValue? {
        do { try bucket().clear() } catch { throw failure(error, doing: "write") }
        return nil
    }

    /// The app's bucket, its file capped at the quota as the kv service caps it.
    private func bucket() throws -> WebStorageBucket {
        guard let location = options.localStorage else {
            throw NativeFunctionError("localStorage is not available: this run has no data folder to keep it in", name: "SecurityError")
        }
        do {
            let store = try location.stores.store(directory: location.directory)
            try store.center.limit(bytes: options.storageQuotaBytes)
            return WebStorageBucket(store: store)
        } catch {
            throw failure(error, doing: "open")
        }
    }

    /// What JS sees of a failure of the kv store: a quota's, named so that the script throws a
    /// QuotaExceededError DOMException; any other as an Error naming the file.
    private func failure(_ error: any Error, doing what: String) -> any Error {
        guard let error = error as? PersistenceError else { return error }
        let file = (options.localStorage?.directory ?? "") + "/.kv.sqlite"
        if case .failed("quota", _, _) = error {
            return NativeFunctionError("the app's kv file (\(file)) is at its quota of \(options.storageQuotaBytes) bytes (quotas.kvBytes in app.json)",
                                       name: "QuotaExceededError")
        }
        return NativeFunctionError("localStorage could not \(what) the app's kv file (\(file)): \(error)", name: "Error")
    }
}
