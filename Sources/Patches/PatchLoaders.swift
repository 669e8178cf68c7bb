import Bridge
import Synchronization

/// The patch loader of each app of a run, for the `patch` service: a service has no handle on the
/// session, only the ``Bridge/AppContext`` of the call. One per run, shared by the run's
/// ``PatchService`` and its ``PatchLoader``; another run in the same process has its own.
public final class PatchLoaders: Sendable {
    private final class Weak: Sendable {
        weak let loader: PatchLoader?
        init(_ loader: PatchLoader) { self.loader = loader }
    }

    private let loaders = Mutex<[ObjectIdentifier: Weak]>([:])

    public init() {}

    func register(_ loader: PatchLoader, for app: ObjectIdentifier) {
        loaders.withLock { $0[app] = Weak(loader) }
    }

    /// From a loader's deinit: removes the entry unless another app (a new context at the same
    /// address) has registered since.
    func unregister(_ app: ObjectIdentifier) {
        loaders.withLock { loaders in
            if loaders[app]?.loader == nil { loaders.removeValue(forKey: app) }
        }
    }

    func loader(for app: AppContext) -> PatchLoader? {
        loaders.withLock { $0[ObjectIdentifier(app)]?.loader }
    }
}
