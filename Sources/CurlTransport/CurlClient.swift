import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process's HTTP client: libcurl's multi interface on one thread (``CurlLoop``), with
/// redirects followed here rather than by curl, so that every hop's host is checked before a byte
/// is sent to it.
///
/// ```swift
/// let response = try await CurlClient.shared.perform(TransferRequest(url: "http://127.0.0.1:8080/v1/health"))
/// print(response.status, String(decoding: response.body, as: UTF8.self))
/// ```
///
/// Cancelling the calling task aborts the transfer at once and closes its connection.
public struct CurlClient: Sendable {
    public static let shared = CurlClient()

    private init() {}

    /// The curl thread as a task executor, for tasks that only await transfers and never block.
    public var executor: any TaskExecutor { CurlLoop.shared }

    /// Connects every later request for `host` on `port` to `address` instead of asking DNS, as
    /// curl's `--resolve` does, for the whole process: tests give a made-up name
    /// (`api.example.test`) to a server on 127.0.0.1. The grants still judge the URL's host; only
    /// the address its connection goes to changes.
    public func pin(host: String, port: Int, to address: String) {
        CurlLoop.shared.pin("\(host):\(port):\(address)")
    }

    /// Runs `request`, following redirects when it asks to. `allowHost` is asked for the first URL
    /// and for every redirect target, with the host in ``URLTarget``'s canonical form, before a
    /// byte is sent to it; a refusal ends the request with ``TransferError/Reason/denied``. A header
    /// that curl would send as something else ends it with ``TransferError/Reason/badHeader``.
    public func perform(_ request: TransferRequest, allowHost: @Sendable (String) -> Bool = { _ in true }) async throws(TransferError) -> TransferResponse {
        for (name, value) in request.headers {
            if let problem = TransferRequest.headerProblem(name: name, value: value) {
                throw TransferError(.badHeader, "header \(name): \(problem)", url: request.url)
            }
        }
        let started = Self.nowMs()
        var current = request
        var target = try URLTarget(request.url)
        var hops = 0
        while true {
            try target.checkGranted(allowHost)
            current.url = target.url
            current.hop = request.hostOverrides?(target.host)
            let hop = try await once(current)
            var response = hop.response
            if current.followRedirects, TransferResponse.redirectStatuses.contains(response.status), let next = hop.redirectURL {
                hops += 1
                guard hops <= current.maxRedirects else {
                    throw TransferError(.tooManyRedirects, "more than \(current.maxRedirects) redirects, the last to \(next)", url: request.url)
                }
                target = try URLTarget(next)
                // 301/302/303 turn into a body-less GET, as browsers and curl -L do; 307/308 repeat the request.
                if [301, 302, 303].contains(response.status), current.method != "HEAD" {
                    current.method = "GET"
                    current.body = nil
                    current.headers.removeAll { $0.name.lowercased() == "content-type" || $0.name.lowercased() == "content-length" }
                }
                continue
            }
            response.timing.totalMs = Self.nowMs() - started
            return response
        }
    }

    /// One hop, on the curl thread.
    private func once(_ request: TransferRequest) async throws(TransferError) -> TransferResponse.Hop {
        let slot = Mutex<CurlTransfer?>(nil)
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<CurlTransfer.Hop, any Error>) in
                    let transfer = CurlTransfer(request: request, continuation: continuation)
                    slot.withLock { $0 = transfer }
                    // Cancelled before the slot was filled: the handler below saw nothing to stop.
                    if Task.isCancelled { transfer.cancel(); return }
                    CurlLoop.shared.start(transfer)
                }
            } onCancel: {
                if let transfer = slot.withLock({ $0 }) { CurlLoop.shared.cancel(transfer) }
            }
        } catch let error as TransferError {
            throw error
        } catch {
            throw TransferError(.protocol, "\(error)", url: request.url)
        }
    }

    /// A monotonic clock in milliseconds, the one timings are measured on.
    public static func nowMs() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }
}

extension TransferResponse {
    typealias Hop = CurlTransfer.Hop
}
