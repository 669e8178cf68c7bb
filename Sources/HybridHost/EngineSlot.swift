import Engine
import Synchronization

/// The engine a callback made before it (the inspector hub's wake) reaches once it exists; weak,
/// so the hub does not keep a stopped engine alive.
final class EngineSlot: Sendable {
    private let engine = Mutex<WeakEngine>(WeakEngine())

    private struct WeakEngine {
        weak var engine: JSEngine?
    }

    func set(_ engine: JSEngine) {
        self.engine.withLock { $0.engine = engine }
    }

    func get() -> JSEngine? {
        engine.withLock { $0.engine }
    }
}
