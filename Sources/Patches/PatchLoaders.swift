/// The loader of each running app, for the `patch` service: a service has no handle on the
/// session, only the ``Bridge/AppContext`` of the call.
enum PatchLoaders {
    private final class Weak { weak var loader: PatchLoader?; init(_ loader: PatchLoader) { self.loader = loader } }
    private static let lock = PatchLock()
    nonisolated(unsafe) private static var loaders: [ObjectIdentifier: Weak] = [:]

    static func register(_ loader: PatchLoader, for app: ObjectIdentifier) {
        lock.withLock { loaders[app] = Weak(loader) }
    }

    /// From a loader's deinit: removes the entry unless another app (a new context at the same
    /// address) has registered since.
    static func unregister(_ app: ObjectIdentifier) {
        lock.withLock {
            if loaders[app]?.loader == nil { loaders.removeValue(forKey: app) }
        }
    }

    static func loader(for app: ObjectIdentifier) -> PatchLoader? {
        lock.withLock { loaders[app]?.loader }
    }
}
