import Engine
import Glibc
import KeyValueStore
import Persistence
import Synchronization

/// The kv stores of one app run, each opened on first use and closed when the run lets the
/// service go, and beside each the counter its commits bump for the JS client.
///
/// Keyed by data folder: one service instance serves one app, but nothing here assumes it.
final class KeyValueStores: Sendable {
    private struct Slot {
        var store: KeyValueStore?
        let commits = SharedCounter()
    }

    private let slots = Mutex<[String: Slot]>([:])

    /// The counter `directory`'s store bumps after every commit, made before the store is opened:
    /// the JS client reads it as memory and drops its own cache when it moves.
    func commits(directory: String) -> SharedCounter {
        slots.withLock { slots in
            if let slot = slots[directory] { return slot.commits }
            let slot = Slot()
            slots[directory] = slot
            return slot.commits
        }
    }

    /// The store of `directory`, opened once per run.
    func store(directory: String) throws(PersistenceError) -> KeyValueStore {
        try slots.withLock { (slots: inout [String: Slot]) throws(PersistenceError) -> KeyValueStore in
            var slot = slots[directory] ?? Slot()
            // A store opened for reading gives way to a writable one once its file can be written.
            if let store = slot.store, !store.center.isReadOnly || access(store.center.path, W_OK) != 0 { return store }
            let store = try KeyValueStore(directory: directory)
            let commits = slot.commits
            store.onCommit { commits.increment() }
            slot.store = store
            slots[directory] = slot
            return store
        }
    }
}
