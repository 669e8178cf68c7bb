import Bridge
import CurlTransport
import HTTPCaching
import JSON
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The `network` target (contract `services/network.json`): HTTP over libcurl, many
/// requests at once on one multi handle, for hosts the app's `network:HOST` grants name.
///
/// ```js
/// const res = await Hybrid.call("network", "request", { url: "http://127.0.0.1:8080/todos", json: { title: "milk" } });
/// res.status; res.body; res.timing.totalMs;
/// ```
///
/// HTTP statuses are results; only a transfer that produced no answer is an error (`E_FAILED` with
/// `details.reason`). Every hop of a redirect is checked against the grants before it is fetched.
/// A download writes only inside the app's data folder, and never into the host's own entries of
/// it (``HostEntries``): a script must not rewrite what the host keeps about it, such as the patch
/// ledger.
public struct NetworkService: BridgeService {
    public let target = "network"
    /// This run's state: downloads' progress, GETs in flight, HTTP caches. Another app in the
    /// same process has its own; only the curl thread and its connections are the process's.
    private let progress = ProgressBoard()
    private let transfers = SharedTransfers()
    let caches = HTTPCaches()
    let queue = TransferQueue()
    /// `fetch`'s bodies still arriving, read with `read`.
    let bodies = ResponseBodies()
    /// Open WebSockets, used with `socketSend`, `socketReceive` and `socketClose`.
    let sockets = NetworkSockets()
    /// `enqueue`'s queues, kept in the data folder and sent while the app runs.
    private let offline = OfflineQueues()
    /// What downloads may not write into: the host's own entries of the data folder.
    private let hostEntries: HostEntries

    /// The `User-Agent` `fetch` sends when a request has none (`navigator.userAgent`); none when nil.
    let userAgent: String?

    /// `hostEntries`: the host's entries of the data folder, which the layer that lays the folder
    /// out names (an app run passes them all); by default the hidden ones, this service's own.
    /// `userAgent`: what `fetch` sends as `User-Agent` when a request has none of its own.
    public init(hostEntries: HostEntries = .hiddenOnly, userAgent: String? = nil) {
        self.hostEntries = hostEntries
        self.userAgent = userAgent
    }

    public var actions: [String: ServiceAction] {
        [
            // A request only awaits the curl thread, so it runs on the JS thread's executor and
            // hands no work to a worker; a cached request does its file work on the pool.
            "request": .nonBlocking(NetworkRequest.self) { call, request in
                try await self.request(call, request.capped(at: call.app.quotas.responseBytes).signed(for: call.app))
            },
            "download": .worker(NetworkDownloadParams.self) { call, params in
                try await download(call, params)
            },
            "fetch": .nonBlocking(NetworkFetchParams.self) { call, params in
                try await fetch(call, params)
            },
            "read": .nonBlocking(NetworkBodyParams.self) { _, params in
                try await bodies.read(params.stream)
            },
            "cancel": .inline(NetworkBodyParams.self) { _, params in
                ["cancelled": .bool(bodies.cancel(params.stream))]
            },
            "socketOpen": .nonBlocking(NetworkSocketOpenParams.self) { call, params in
                try await openSocket(call, params)
            },
            "socketSend": .nonBlocking(NetworkSocketSendParams.self) { _, params in
                try await send(params)
            },
            "socketReceive": .nonBlocking(NetworkSocketParams.self) { _, params in
                try await sockets.receive(params.socket)
            },
            "socketClose": .inline(NetworkSocketCloseParams.self) { _, params in
                try sockets.close(params)
                return .null
            },
            "progress": .worker(NetworkProgressParams.self) { call, params in
                let snapshot = await progress.wait(scoped(params.requestId, call), since: params.since, timeoutMs: params.timeoutMs)
                return snapshot.json(requestId: params.requestId)
            },
            // The offline queue's actions read and write SQLite: on a worker.
            "enqueue": .worker(NetworkEnqueueParams.self) { call, params in
                try enqueue(call, params)
            },
            "queueStatus": .worker(NetworkQueueStatusParams.self) { call, params in
                try offlineQueue(call).status(queue: params.queue, limit: params.limit)
            },
            "queueRetry": .worker(NetworkQueueItemsParams.self) { call, params in
                let queue = try offlineQueue(call)
                let ids = try queue.store.retry(queue: params.queue, id: params.id)
                if !ids.isEmpty { queue.wake(params.queue) }
                return ["retried": .array(ids.map { .number(Double($0)) })]
            },
            "queueCancel": .worker(NetworkQueueItemsParams.self) { call, params in
                let queue = try offlineQueue(call)
                if let id = params.id, try queue.store.state(of: id, queue: params.queue) == .sending {
                    throw BridgeError(.failed, "network.queueCancel: item \(id) of queue \(JSONValue.string(params.queue)) is being sent; it can no longer be cancelled",
                                      details: ["reason": "sending", "id": .number(Double(id))])
                }
                return ["cancelled": .array(try queue.store.cancel(queue: params.queue, id: params.id).map { .number(Double($0)) })]
            },
            "queueWatch": .worker(NetworkQueueWatchParams.self) { call, params in
                try await offlineQueue(call).watch(queue: params.queue, after: params.after, timeoutMs: params.timeoutMs, limit: params.limit)
            },
        ]
    }

    /// The run has ended: the offline queue's senders stop, what they had not sent stays on disk.
    public func runEnded(app: AppContext) {
        offline.stop()
    }

    /// The offline queue of `call`'s app, opened on its first use in the run.
    private func offlineQueue(_ call: ServiceCall) throws(BridgeError) -> OfflineQueue {
        try offline.queue(for: call.app) { request, app throws(BridgeError) in
            try await fetch(request.capped(at: app.quotas.responseBytes).signed(for: app), sharingKey: nil, app: app, action: "enqueue")
        }
    }

    /// Checks the request as it will be sent (grants, signer), stores it, and answers once it is
    /// committed: an answered enqueue survives the process being killed.
    private func enqueue(_ call: ServiceCall, _ params: NetworkEnqueueParams) throws(BridgeError) -> JSONValue {
        let key = params.request.idempotencyKey ?? Self.uuid()
        do {
            _ = try params.request.networkRequest(idempotencyKey: key).signed(for: call.app)
        } catch {
            throw QueuedRequest.nested(error, under: "/request")
        }
        do { try URLTarget(params.request.url).checkGranted(call.app.allowsHost) } catch { throw error.bridgeError }
        let queue = try offlineQueue(call)
        let (id, position) = try queue.store.enqueue(queue: params.queue, request: params.request, idempotencyKey: key, limit: call.app.quotas.queuedRequests)
        queue.wake(params.queue)
        return ["id": .number(Double(id)), "queue": .string(params.queue), "position": .number(Double(position)), "idempotencyKey": .string(key)]
    }

    /// A random (version 4) UUID, lower case: the `Idempotency-Key` of a queued request.
    static func uuid() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    /// A `network:HOST` grant's host, in the form the transport compares every URL's host in
    /// (`URLTarget`: curl's own parse, lower case, no trailing dot, `127.1` as `127.0.0.1`, `::1`
    /// without brackets). Sync and patch endpoints are checked against these grants too.
    public func grantQualifier(_ written: String) throws(GrantError) -> String {
        do { return try URLTarget.grantedHost(written) } catch { throw GrantError(message: error.message) }
    }

    private func request(_ call: ServiceCall, _ request: NetworkRequest) async throws(BridgeError) -> JSONValue {
        guard request.useCache, let key = request.sharingKey else {
            return try ResponseEncoder.json(try await fetch(request, sharingKey: request.sharingKey, app: call.app), as: request.responseType)
        }
        return try await withTaskExecutorPreference(globalConcurrentExecutor) { () async throws(BridgeError) -> JSONValue in
            try await cachedRequest(request, key: key, call: call)
        }
    }

    /// A GET through the HTTP cache. It reads and writes files, so it runs on the pool.
    private func cachedRequest(_ request: NetworkRequest, key: String, call: ServiceCall) async throws(BridgeError) -> JSONValue {
        let allowHost = call.app.allowsHost
        let cache = caches.cache(dataDirectory: call.app.dataDirectory)
        let started = CurlClient.nowMs()
        var revalidation = request
        if var entry = cache.load(key) {
            if entry.isFresh(at: HTTPDate.now()) {
                // The host must still be granted: a cached answer is no way around the grants.
                do { try URLTarget(request.transfer.url).checkGranted(allowHost) } catch { throw error.bridgeError }
                var response = entry.response
                response.timing.totalMs = CurlClient.nowMs() - started
                return try ResponseEncoder.json(response, as: request.responseType, cache: "hit")
            }
            revalidation.transfer.headers += entry.validators
            let response = try await fetch(revalidation, sharingKey: key + "\n#revalidate", app: call.app)
            if response.status == 304 {
                entry.revalidated(by: response, now: HTTPDate.now())
                cache.save(entry)
                var answer = entry.response
                answer.timing = response.timing
                return try ResponseEncoder.json(answer, as: request.responseType, cache: "revalidated")
            }
            store(response, key: key, in: cache)
            return try ResponseEncoder.json(response, as: request.responseType, cache: "miss")
        }
        let response = try await fetch(request, sharingKey: key, app: call.app)
        store(response, key: key, in: cache)
        return try ResponseEncoder.json(response, as: request.responseType, cache: "miss")
    }

    func store(_ response: TransferResponse, key: String, in cache: HTTPCache) {
        if let entry = CacheEntry(key: key, response: response, now: HTTPDate.now()) {
            cache.save(entry)
        } else if response.status == 200 {
            cache.remove(key)
        }
    }

    /// Runs `transfer` (by default `request`'s) once the app's running limits let it start
    /// (``TransferQueue``), its timeout lowered by the time it waited. An identical GET in flight
    /// is joined at once instead: it opens no connection, so it takes no slot. The host's grant is
    /// checked first, so an ungranted call neither waits nor joins what another caller started.
    private func fetch(_ request: NetworkRequest, transfer: TransferRequest? = nil, sharingKey: String?, app: AppContext,
                       action: String = "request") async throws(BridgeError) -> TransferResponse {
        let allowHost = app.allowsHost
        let target: URLTarget
        do {
            target = try URLTarget(request.transfer.url)
            try target.checkGranted(allowHost)
            if let sharingKey, let flight = transfers.join(key: sharingKey) { return try await transfers.wait(for: flight, key: sharingKey) }
        } catch {
            throw error.bridgeError(responseQuota: request.responseQuota)
        }
        var prepared = transfer ?? request.transfer
        await HostRouting.prepare(&prepared, app: app)
        return try await RetryPolicy.run(request.retry, calledAtMs: request.calledAtMs, timeoutMs: request.timeoutMs) { [prepared] () async throws(BridgeError) in
            try await queue.holding(origin: target.origin, limits: TransferQueue.Limits(app), started: request.calledAtMs,
                                    timeoutMs: request.timeoutMs, action: action, url: target.url) { queuedMs throws(BridgeError) in
                var transfer = prepared
                transfer.timeoutMs = request.remainingTimeoutMs
                do throws(TransferError) {
                    var response: TransferResponse
                    if let sharingKey {
                        response = try await transfers.fetch(key: sharingKey) { [transfer] () async throws(TransferError) -> TransferResponse in
                            try await CurlClient.shared.perform(transfer, allowHost: allowHost)
                        }
                    } else {
                        response = try await CurlClient.shared.perform(transfer, allowHost: allowHost)
                    }
                    response.timing.queuedMs = queuedMs
                    return response
                } catch {
                    throw error.bridgeError(responseQuota: request.responseQuota)
                }
            }
        }
    }

    private func download(_ call: ServiceCall, _ params: NetworkDownloadParams) async throws(BridgeError) -> JSONValue {
        let request = params.request.capped(at: call.app.quotas.responseBytes)
        let destination = try DownloadTarget(params.path, dataDirectory: call.app.dataDirectory, hostEntries: hostEntries)
        let id = params.requestId ?? Self.nextRequestId()
        let key = scoped(id, call)
        guard !progress.isRunning(key) else {
            throw BridgeError.badParams("/requestId", "a download with requestId \"\(id)\" is already running")
        }
        let partial = "\(destination.folder)/.\(destination.path.split(separator: "/").last!).\(getpid()).part"
        let fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw BridgeError.failed(reason: "io", "cannot write \(destination.relative): \(String(cString: strerror(errno)))") }
        var transfer = request.transfer
        transfer.sink = .file(fd)
        transfer.onProgress = { received, total in
            progress.update(key) { $0.state = .running; $0.received = received; $0.total = total }
        }
        progress.update(key) { $0 = ProgressBoard.Snapshot(state: .running) }
        let response: TransferResponse
        do {
            response = try await fetch(request, transfer: transfer, sharingKey: nil, app: call.app, action: "download")
        } catch {
            close(fd)
            unlink(partial)
            let reason = error.details?["reason"]?.stringValue ?? error.code.rawValue
            progress.update(key) { $0.state = .failed; $0.error = "\(reason): \(error.message)" }
            throw error
        }
        let saved = (200..<300).contains(response.status)
        let synced = fsync(fd) == 0
        close(fd)
        if saved {
            guard synced, rename(partial, destination.path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(partial)
                progress.update(key) { $0.state = .failed; $0.error = "io: \(reason)" }
                throw BridgeError.failed(reason: "io", "cannot save \(destination.relative): \(reason)")
            }
        } else {
            // An error page is an answer, not the file that was asked for.
            unlink(partial)
        }
        progress.update(key) { $0.state = .done; $0.received = response.bodySize; $0.total = $0.total ?? response.bodySize }
        return [
            "requestId": .string(id), "path": .string(destination.relative), "saved": .bool(saved),
            "status": .number(Double(response.status)), "bytes": .number(Double(response.bodySize)),
            "headers": .object(ResponseEncoder.headers(response.headers)), "url": .string(response.url),
            "timing": ResponseEncoder.timing(response.timing),
        ]
    }

    /// Request ids are the app's own names; two apps in one process never see each other's.
    private func scoped(_ id: String, _ call: ServiceCall) -> String { call.app.dataDirectory + "\n" + id }

    private static let counter = Atomic<Int>(0)
    private static func nextRequestId() -> String { "download-\(counter.add(1, ordering: .relaxed).newValue)" }
}
