import Glibc
import Persistence
import Synchronization

/// The kv stores of one app run, each opened on first use, and the hooks their commits run.
///
/// One instance per run, handed to every user of the app's kv file (the `kv` service and the web
/// platform's `localStorage`), so that both write through one ``KeyValueStore``: one write path
/// per file, one cache that every commit keeps honest. Keyed by data folder: one run serves one
/// app, but nothing here assumes it.
///
/// ```swift
/// let stores = KeyValueStores()
/// stores.onCommit(directory: dataDir) { commits.increment() }
/// let store = try stores.store(directory: dataDir)
/// ```
public final class KeyValueStores: Sendable {
    private struct Slot {
        var store: KeyValueStore?
        var hooks: [@Sendable () -> Void] = []
    }

    private let slots = Mutex<[String: Slot]>([:])

    public init() {}

    /// Calls `body` after every commit to `directory`'s store, opened now or later (and again
    /// when a store opened for reading gives way to a writable one): see
    /// ``KeyValueStore/onCommit(_:)``.
    public func onCommit(directory: String, _ body: @escaping @Sendable () -> Void) {
        slots.withLock { slots in
            var slot = slots[directory] ?? Slot()
            slot.hooks.append(body)
            slot.store?.onCommit(body)
            slots[directory] = slot
        }
    }

    /// The store of `directory`, opened once per run.
    public func store(directory: String) throws(Persistence.PersistenceError) -> KeyValueStore {
        try slots.withLock { (slots: inout [String: Slot]) throws(Persistence.PersistenceError) -> KeyValueStore in
            var slot = slots[directory] ?? Slot()
            // A store opened for reading gives way to a writable one once its file can be written.
            if let store = slot.store, !store.center.isReadOnly || access(store.center.path, W_OK) != 0 { return store }
            let store = try KeyValueStore(directory: directory)
            for hook in slot.hooks { store.onCommit(hook) }
            slot.store = store
            slots[directory] = slot
            return store
        }
    }
}
