import Bridge
import CurlTransport
import HTTPCaching
import JSON
import Synchronization

/// `network.fetch`'s params: a request as `network.request` takes it (without `responseType` or
/// its boolean `cache`), with the Fetch Standard's redirect and cache modes.
struct NetworkFetchParams: ActionParams {
    enum Redirect: String, CaseIterable, ParamValue {
        case follow, error, manual
    }

    /// Request cache modes, mapped onto the app's HTTP cache (the one `request`'s `cache: true` uses).
    enum CacheMode: String, CaseIterable, ParamValue {
        /// Fresh: from the cache. Stale: revalidated. Stored when cacheable.
        case `default`
        /// Neither read nor written.
        case noStore = "no-store"
        /// Not read; stored when cacheable.
        case reload
        /// Always revalidated when something is stored.
        case noCache = "no-cache"
        /// Anything stored, fresh or stale, without asking the server.
        case forceCache = "force-cache"
        /// Anything stored, or E_FAILED reason not_cached; never the network.
        case onlyIfCached = "only-if-cached"
    }

    /// Whether the app's cookie jar takes part: omit leaves it out; the others send its cookies and
    /// store what the answer sets (a host has no origin to tell same-origin from cross-origin by).
    enum Credentials: String, CaseIterable, ParamValue {
        case omit
        case sameOrigin = "same-origin"
        case include
    }

    private static let conditionalHeaders: Set<String> = ["if-modified-since", "if-none-match", "if-unmodified-since", "if-match", "if-range"]

    var request: NetworkRequest
    let redirect: Redirect
    let cache: CacheMode
    let credentials: Credentials
    /// `bodyAsText`: a whole body of at most ``NetworkService/textBodyLimit`` bytes that is UTF-8
    /// is answered as `text`, a string, instead of `body`'s bytes.
    let bodyAsText: Bool

    init(from params: ParamsReader) throws(BridgeError) {
        request = try NetworkRequest(from: params, cacheFlag: false)
        redirect = try params.optional("redirect") ?? .follow
        credentials = try params.optional("credentials") ?? .sameOrigin
        bodyAsText = try params.optional("bodyAsText") ?? false
        let asked: CacheMode = try params.optional("cache") ?? .default
        // A request with conditional headers of its own is the app's revalidation: as the Fetch
        // Standard says, the default mode then neither answers from nor writes to the cache.
        if asked == .default, request.transfer.headers.contains(where: { Self.conditionalHeaders.contains($0.name.lowercased()) }) {
            cache = .noStore
        } else {
            cache = asked
        }
        if cache == .onlyIfCached, request.transfer.method != "GET" {
            throw BridgeError.badParams("/cache", "only-if-cached answers from the cache, which holds GET responses only; \(request.transfer.method) cannot use it")
        }
    }

    /// The cache key when this fetch touches the cache: a GET without a body, in a mode other than no-store.
    var cacheKey: String? { cache == .noStore ? nil : request.sharingKey }
}

extension TransferRequest {
    /// The headers the Fetch Standard's fetch adds to a request that has none of its own, as
    /// node's and Deno's do: `Accept: */*`, `Accept-Language: *` and `User-Agent` (the host's,
    /// `navigator.userAgent`). curl sends the same `Accept` and, from ``userAgent``, the
    /// `User-Agent` when the headers hold neither, which spares a header line of ours for each;
    /// a request to be signed gets them as headers, so that a signer may name them.
    mutating func addFetchDefaults(userAgent: String?, signing: Bool) {
        var hasAccept = false, hasLanguage = false, hasAgent = false
        for header in headers {
            if Self.named(header.name, "accept") { hasAccept = true }
            else if Self.named(header.name, "accept-language") { hasLanguage = true }
            else if Self.named(header.name, "user-agent") { hasAgent = true }
        }
        if !hasLanguage { headers.append(("Accept-Language", "*")) }
        guard signing else {
            if !hasAgent { self.userAgent = userAgent }
            return
        }
        if !hasAccept { headers.append(("Accept", "*/*")) }
        if !hasAgent, let userAgent { headers.append(("User-Agent", userAgent)) }
    }

    /// Whether header `name` is `lowered`, compared as header names are: without regard to case
    /// (lowered only when the lengths agree, which few names' do).
    private static func named(_ name: String, _ lowered: String) -> Bool {
        name.utf8.count == lowered.utf8.count && name.lowercased() == lowered
    }
}

/// `network.read`'s and `network.cancel`'s params.
struct NetworkBodyParams: ActionParams {
    let stream: Int

    init(from params: ParamsReader) throws(BridgeError) {
        stream = try params.required("stream")
    }
}

/// The process's cookie jars, one per data folder (its `.cookies` file), whichever app run asks:
/// two jars over one file would overwrite each other's saves.
enum CookieJars {
    private static let jars = Mutex<[String: CookieJar]>([:])

    static func jar(dataDirectory: String) -> CookieJar {
        jars.withLock { jars in
            if let jar = jars[dataDirectory] { return jar }
            let jar = CookieJar(path: dataDirectory + "/.cookies")
            jars[dataDirectory] = jar
            return jar
        }
    }
}

/// The bodies `fetch` answered with before they had arrived, by the id JS reads them by.
final class ResponseBodies: Sendable {
    private let open = Mutex<(next: Int, streams: [Int: ResponseBodyStream])>((1, [:]))

    func add(_ stream: ResponseBodyStream) -> Int {
        open.withLock { open in
            let id = open.next
            open.next += 1
            open.streams[id] = stream
            return id
        }
    }

    /// `read`: `{bytes}` for the next chunk, `{done: true}` at the end; a body that failed midway
    /// fails the read with the network's reason. An ended body's id is forgotten.
    func read(_ id: Int) async throws(BridgeError) -> JSONValue {
        guard let stream = open.withLock({ $0.streams[id] }) else {
            throw BridgeError.badParams("/stream", "no response body \(id) is being read: it ended, was cancelled, or was never opened")
        }
        switch await stream.next() {
        case .bytes(let bytes):
            return ["bytes": .bytes(bytes)]
        case .end:
            open.withLock { _ = $0.streams.removeValue(forKey: id) }
            return ["done": .bool(true)]
        case .failed(let failure):
            open.withLock { _ = $0.streams.removeValue(forKey: id) }
            throw failure.reason == .cancelled ? BridgeError(.cancelled, "the response body was cancelled") : failure.bridgeError
        }
    }

    /// `cancel`: aborts the transfer. False when the id was not open (ended or cancelled already).
    func cancel(_ id: Int) -> Bool {
        guard let stream = open.withLock({ $0.streams.removeValue(forKey: id) }) else { return false }
        stream.cancel()
        return true
    }
}

extension NetworkService {
    /// The most a cacheable answer may be for the cache to read it whole before answering: a
    /// larger one (or one of unknown length) streams and is not stored.
    static let cachedBodyLimit = 1 << 20
    /// The largest body `bodyAsText` answers as text: a string costs JS less to receive than bytes
    /// (a Uint8Array over memory of its own), and text() and json() read it as it is.
    static let textBodyLimit = 64 << 10

    /// What an answer is made for: the request's method (HEAD has no body) and how a whole body goes.
    private struct AnswerShape {
        let method: String
        let bodyAsText: Bool
    }

    func fetch(_ call: ServiceCall, _ params: NetworkFetchParams) async throws(BridgeError) -> JSONValue {
        // Not held to quotas.responseBytes: that bounds bodies held whole in memory, and a fetch
        // body is read as it arrives (the cache keeps only small ones). maxBytes still applies.
        var unsigned = params.request
        // After the cache key: the defaults are the same for every fetch, so they tell none apart.
        unsigned.transfer.addFetchDefaults(userAgent: userAgent, signing: unsigned.sign != nil)
        var request = try unsigned.signed(for: call.app)
        request.transfer.maxBytes = request.maxBytes
        if params.credentials != .omit { request.transfer.cookieJar = CookieJars.jar(dataDirectory: call.app.dataDirectory) }
        let shape = AnswerShape(method: request.transfer.method, bodyAsText: params.bodyAsText)
        guard let key = params.cacheKey else {
            let (response, redirected) = try await open(request, redirect: params.redirect, app: call.app)
            return answer(response, as: shape, redirected: redirected)
        }
        let cache = caches.cache(dataDirectory: call.app.dataDirectory)
        if params.cache != .onlyIfCached, !cache.holds(key) {
            // Nothing stored to read or revalidate (the cache tells without a file operation): the
            // answer goes to the pool only when the cache keeps it.
            let (response, redirected) = try await open(request, redirect: params.redirect, app: call.app)
            guard CacheEntry(key: key, response: response, now: HTTPDate.now()) != nil else {
                return answer(response, as: shape, redirected: redirected, cache: "miss")
            }
            return try await withTaskExecutorPreference(globalConcurrentExecutor) { () async throws(BridgeError) -> JSONValue in
                answer(try await storing(response, key: key, in: cache), as: shape, redirected: redirected, cache: "miss")
            }
        }
        // The cache reads and writes files: on the pool.
        return try await withTaskExecutorPreference(globalConcurrentExecutor) { () async throws(BridgeError) -> JSONValue in
            try await cachedFetch(request, mode: params.cache, redirect: params.redirect, key: key, shape: shape, app: call.app)
        }
    }

    private func cachedFetch(_ request: NetworkRequest, mode: NetworkFetchParams.CacheMode, redirect: NetworkFetchParams.Redirect,
                             key: String, shape: AnswerShape, app: AppContext) async throws(BridgeError) -> JSONValue {
        let cache = caches.cache(dataDirectory: app.dataDirectory)
        let started = CurlClient.nowMs()
        if mode != .reload, var entry = cache.load(key) {
            let servesStale = mode == .forceCache || mode == .onlyIfCached
            if servesStale || (mode == .default && entry.isFresh(at: HTTPDate.now())) {
                // The host must still be granted: a cached answer is no way around the grants.
                do { try URLTarget(request.transfer.url).checkGranted(app.allowsHost) } catch { throw error.bridgeError }
                var response = entry.response
                response.timing.totalMs = CurlClient.nowMs() - started
                return answer(response, as: shape, redirected: false, cache: "hit")
            }
            var revalidation = request
            revalidation.transfer.headers += entry.validators
            let (response, redirected) = try await open(revalidation, redirect: redirect, app: app)
            if response.status == 304 {
                entry.revalidated(by: response, now: HTTPDate.now())
                cache.save(entry)
                var answered = entry.response
                answered.timing = response.timing
                return answer(answered, as: shape, redirected: redirected, cache: "revalidated")
            }
            return answer(try await storing(response, key: key, in: cache), as: shape, redirected: redirected, cache: "miss")
        }
        if mode == .onlyIfCached {
            throw BridgeError.failed(reason: "not_cached", "nothing is cached for \(request.transfer.url), and cache \"only-if-cached\" does not ask the network")
        }
        let (response, redirected) = try await open(request, redirect: redirect, app: app)
        return answer(try await storing(response, key: key, in: cache), as: shape, redirected: redirected, cache: "miss")
    }

    /// Stores a cacheable answer. One still streaming is read whole first when its Content-Length
    /// says it is small (``cachedBodyLimit``); a larger one streams on, unstored.
    private func storing(_ response: TransferResponse, key: String, in cache: HTTPCache) async throws(BridgeError) -> TransferResponse {
        guard let stream = response.stream else {
            store(response, key: key, in: cache)
            return response
        }
        guard CacheEntry(key: key, response: response, now: HTTPDate.now()) != nil,
              let length = response.header("content-length").flatMap({ Int($0) }), length <= Self.cachedBodyLimit else {
            if response.status == 200 { cache.remove(key) }
            return response
        }
        var whole = response
        whole.stream = nil
        whole.body.reserveCapacity(length)
        while true {
            switch await stream.next() {
            case .bytes(let bytes): whole.body += bytes
            case .end:
                store(whole, key: key, in: cache)
                return whole
            case .failed(let failure): throw failure.bridgeError
            }
        }
    }

    /// Sends `request` once the app's running limits let it start, answering when the final
    /// answer's head is in. Its slot stays taken until the body has been read (or cancelled): the
    /// connection is busy until then. Returns the response and whether a redirect was followed.
    private func open(_ request: NetworkRequest, redirect: NetworkFetchParams.Redirect,
                      app: AppContext) async throws(BridgeError) -> (TransferResponse, redirected: Bool) {
        var transfer = request.transfer
        transfer.sink = .stream
        transfer.followRedirects = redirect == .follow
        let allowHost = app.allowsHost
        let target: URLTarget
        do {
            target = try URLTarget(transfer.url)
            try target.checkGranted(allowHost)
        } catch {
            throw error.bridgeError
        }
        await HostRouting.prepare(&transfer, app: app)
        let response = try await RetryPolicy.run(request.retry, calledAtMs: request.calledAtMs, timeoutMs: request.timeoutMs,
                                                 discard: { $0.stream?.cancel() }) { () async throws(BridgeError) in
            try await send(transfer, of: request, to: target, allowHost: allowHost, app: app)
        }
        if redirect == .error, TransferResponse.redirectStatuses.contains(response.status), let location = response.header("location") {
            response.stream?.cancel()
            throw BridgeError.failed(reason: "redirect", "\(target.url) answered \(response.status) redirecting to \(location), and the request's redirect mode is \"error\"",
                                     details: ["status": .number(Double(response.status)), "location": .string(location)])
        }
        return (response, response.url != target.url)
    }

    /// One attempt: waits for a running slot, sends, and answers at the head. The slot is given back
    /// then, or, for a body still arriving, when it ends (a task waits for that, only then).
    private func send(_ transfer: TransferRequest, of request: NetworkRequest, to target: URLTarget, allowHost: @escaping @Sendable (String) -> Bool,
                      app: AppContext) async throws(BridgeError) -> TransferResponse {
        let queue = queue, limits = TransferQueue.Limits(app), origin = target.origin
        let queuedMs = try await queue.acquire(origin: origin, limits: limits, started: request.calledAtMs,
                                               timeoutMs: request.timeoutMs, action: "fetch", url: target.url)
        var transfer = transfer
        transfer.timeoutMs = request.remainingTimeoutMs
        var response: TransferResponse
        do throws(TransferError) {
            response = try await CurlClient.shared.perform(transfer, allowHost: allowHost)
        } catch {
            queue.finish(origin, limits: limits)
            throw error.bridgeError(responseQuota: request.responseQuota)
        }
        response.timing.queuedMs = queuedMs
        if let stream = response.stream {
            Task {
                await stream.finished()
                queue.finish(origin, limits: limits)
            }
        } else {
            queue.finish(origin, limits: limits)
        }
        return response
    }

    /// What JS receives: the head, and the body whole (`body`, null when the answer has none) or
    /// still arriving (`stream`, read with `read`).
    private func answer(_ response: TransferResponse, as shape: AnswerShape, redirected: Bool, cache: String? = nil) -> JSONValue {
        var object = JSONObject(minimumCapacity: 9)
        object.appendUnique("status", .number(Double(response.status)))
        object.appendUnique("statusText", .string(response.statusText))
        object.appendUnique("headers", .array(response.headers.map { .array([.string($0.name), .string($0.value)]) }))
        object.appendUnique("url", .string(response.url))
        object.appendUnique("redirected", .bool(redirected))
        object.appendUnique("httpVersion", .string(response.httpVersion))
        // The Fetch Standard's null body statuses, and HEAD, carry no body.
        if shape.method == "HEAD" || [101, 103, 204, 205, 304].contains(response.status) {
            object.appendUnique("body", .null)
        } else if let stream = response.stream {
            object.appendUnique("stream", .number(Double(bodies.add(stream))))
        } else if shape.bodyAsText, response.body.count <= Self.textBodyLimit, let text = String(validating: response.body, as: UTF8.self) {
            object.appendUnique("text", .string(text))
        } else {
            object.appendUnique("body", .bytes(response.body))
        }
        object.appendUnique("timing", ResponseEncoder.timing(response.timing))
        if let cache { object.appendUnique("cache", .string(cache)) }
        return .object(object)
    }
}
