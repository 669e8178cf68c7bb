import Bridge
import CurlTransport
import HTTPCaching
import JSON

/// `retry` of `network.request` and `network.fetch` (and of fetch's init): send again when the
/// network or the server says "try later", as OkHttp's and Alamofire's retry policies do.
///
/// ```js
/// await Hybrid.call("network", "request", { url, retry: { attempts: 4, backoffMs: 200 } });
/// ```
///
/// Only for requests that may be repeated: an idempotent method, or any method with an
/// `Idempotency-Key` header (the server's promise to apply it once). Retried: connect, dns,
/// timeout and protocol failures (no answer, or a broken one), and the statuses 408, 429 and 5xx.
/// Between attempts: exponential backoff with full jitter (a random wait up to
/// `backoffMs × 2^(attempt-1)`, at most `maxBackoffMs`), or the answer's `Retry-After` when it
/// gives one. The request's `timeoutMs` bounds them all, waits included. Each attempt is listed in
/// the answer's `timing.attempts`.
struct RetryPolicy: ActionParams {
    /// Attempts in all, the first one included.
    let attempts: Int
    let backoffMs: Int
    let maxBackoffMs: Int

    static let idempotentMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]
    static let retriedReasons: Set<String> = ["connect", "dns", "timeout", "protocol"]

    init(from params: ParamsReader) throws(BridgeError) {
        attempts = try params.required("attempts")
        backoffMs = try params.optional("backoffMs") ?? 200
        maxBackoffMs = try params.optional("maxBackoffMs") ?? 10_000
        guard (1...10).contains(attempts) else { throw BridgeError.badParams(params.path.appending(key: "attempts").description, "expected 1 to 10 attempts, got \(attempts)") }
        guard backoffMs >= 0, maxBackoffMs >= backoffMs else {
            throw BridgeError.badParams(params.path.appending(key: "backoffMs").description, "expected 0 <= backoffMs <= maxBackoffMs, got \(backoffMs) and \(maxBackoffMs)")
        }
    }

    /// Refuses a policy on a request that must not be sent twice.
    static func check(_ policy: RetryPolicy?, method: String, headers: [(name: String, value: String)]) throws(BridgeError) {
        guard policy != nil, !idempotentMethods.contains(method),
              !headers.contains(where: { $0.name.lowercased() == "idempotency-key" }) else { return }
        throw BridgeError.badParams("/retry", "\(method) is not idempotent, so it is retried only with an Idempotency-Key header (the server's promise to apply it once)")
    }

    static func retries(status: Int) -> Bool { status == 408 || status == 429 || (500...599).contains(status) }

    /// The wait before attempt `next` (2, 3...): `Retry-After` when the answer gave one, else full jitter.
    func delayMs(before next: Int, retryAfter: String?) -> Double {
        if let retryAfter, let seconds = Self.seconds(retryAfter) { return seconds * 1000 }
        let cap = min(Double(maxBackoffMs), Double(backoffMs) * Double(1 << min(next - 2, 30)))
        return cap > 0 ? Double.random(in: 0...cap) : 0
    }

    /// `Retry-After`: delay-seconds, or an HTTP-date.
    static func seconds(_ value: String) -> Double? {
        let text = value.trimmingCharacters(in: " \t")
        if let seconds = Int(text), seconds >= 0 { return Double(seconds) }
        return HTTPDate.parse(text).map { max(0, $0 - HTTPDate.now()) }
    }
}

extension RetryPolicy {
    /// Runs `attempt` until it gives an answer not to retry, the attempts run out, or the next wait
    /// would pass the request's deadline (`timeoutMs` after `calledAtMs`); the last outcome is the
    /// call's. `discard` lets go of a response that is retried (a stream to cancel). The attempts
    /// go into the answer's timing, and into the details of the error that ends them.
    static func run(_ policy: RetryPolicy?, calledAtMs: Double, timeoutMs: Int?,
                    discard: (TransferResponse) -> Void = { _ in },
                    _ attempt: () async throws(BridgeError) -> TransferResponse) async throws(BridgeError) -> TransferResponse {
        guard let policy else { return try await attempt() }
        var log: [TransferTiming.Attempt] = []
        var number = 1
        while true {
            let started = CurlClient.nowMs()
            let outcome: Result<TransferResponse, BridgeError>
            do throws(BridgeError) { outcome = .success(try await attempt()) } catch { outcome = .failure(error) }
            let elapsed = CurlClient.nowMs() - started
            var retryAfter: String?
            var retry = false
            switch outcome {
            case .success(let response):
                log.append(TransferTiming.Attempt(status: response.status, ms: elapsed))
                retry = retries(status: response.status)
                retryAfter = response.header("retry-after")
            case .failure(let error):
                let reason = error.details?["reason"]?.stringValue
                log.append(TransferTiming.Attempt(reason: reason ?? error.code.rawValue, ms: elapsed))
                retry = error.code == .failed && reason.map(retriedReasons.contains) == true
            }
            let wait = policy.delayMs(before: number + 1, retryAfter: retryAfter)
            let deadline = timeoutMs.map { calledAtMs + Double($0) }
            if retry, number < policy.attempts, deadline.map({ CurlClient.nowMs() + wait < $0 }) ?? true {
                if case .success(let response) = outcome { discard(response) }
                log[log.count - 1].waitMs = wait
                do { try await Task.sleep(for: .milliseconds(wait)) } catch {
                    throw BridgeError(.cancelled, "the request was cancelled while waiting to retry (after \(number) attempt\(number == 1 ? "" : "s"))")
                }
                number += 1
                continue
            }
            switch outcome {
            case .success(var response):
                response.timing.attempts = log
                return response
            case .failure(var error):
                var details = error.details?.objectValue ?? [:]
                details["attempts"] = ResponseEncoder.attempts(log)
                error.details = .object(details)
                throw error
            }
        }
    }
}
