import Synchronization

/// The HTTP caches of one app run, one per data folder, each made on first use.
final class HTTPCaches: Sendable {
    private let caches = Mutex<[String: HTTPCache]>([:])

    func cache(dataDirectory: String) -> HTTPCache {
        caches.withLock { caches in
            if let cache = caches[dataDirectory] { return cache }
            let cache = HTTPCache(folder: dataDirectory + "/.http-cache")
            caches[dataDirectory] = cache
            return cache
        }
    }
}
