import Engine
import KeyValueStore
import Synchronization

/// Beside each kv store of a run, the counter its commits bump for the JS client: `Hybrid.kv.get`
/// keeps a read cache in JS and drops it when the counter moves. Made before the store is opened,
/// and bumped by every commit to the file, whoever wrote it (a `localStorage` write included).
final class KeyValueCommitCounters: Sendable {
    private let stores: KeyValueStores
    private let counters = Mutex<[String: SharedCounter]>([:])

    init(stores: KeyValueStores) {
        self.stores = stores
    }

    /// `directory`'s counter, made (and hooked to its store's commits) on first use.
    func counter(directory: String) -> SharedCounter {
        counters.withLock { counters -> SharedCounter in
            if let counter = counters[directory] { return counter }
            let counter = SharedCounter()
            counters[directory] = counter
            stores.onCommit(directory: directory) { counter.increment() }
            return counter
        }
    }
}
