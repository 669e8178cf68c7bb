import KeyValueStore

/// Where `localStorage` keeps an app's items: a bucket of the app's kv store, opened through the
/// run's ``KeyValueStores`` so that it is the very store the `kv` service writes (one write path
/// per file).
public struct WebStorageLocation: Sendable {
    public var stores: KeyValueStores
    /// The app's data folder, which holds its kv file (`.kv.sqlite`).
    public var directory: String

    public init(stores: KeyValueStores, directory: String) {
        self.stores = stores
        self.directory = directory
    }
}
