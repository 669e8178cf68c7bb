import Bridge
import CurlTransport
import JSON
import PatchProtocol
import SystemIO

/// The device's side of the patch server (app.json `patches`): asks it for a patch with the
/// protocol's check (`POST /v1/apps/{app}/check`), applies the revocations it hands out, and sends
/// the loader's reports (`POST /v1/apps/{app}/reports`) from the durable queue once a device token
/// is known (`patch.configure`). Checks run at start and every `checkEvery` seconds, with backoff
/// while the server is away, as tasks that hold no thread and do not keep the run alive.
// @unchecked: mutable state is in `board` (a WaitingBoard) and `loader` is weak, set once in `start`.
public final class PatchServerClient: @unchecked Sendable {
    public let settings: PatchServerSettings
    public let app: String
    let appVersion: String
    let dataDirectory: String
    let allowHost: @Sendable (String) -> Bool
    let report: @Sendable (String) -> Void
    public let reports: PatchReportQueue

    /// Backoff of the report sender: the first retry after this, doubling to ``longestReportWait``.
    static let firstReportWait = 1.0
    static let longestReportWait = 300.0
    /// Longest wait between two checks while the server is away (or `checkEvery` if longer).
    static let longestCheckWait = 6.0 * 3600

    struct State: Sendable {
        var token: String?
        /// Moves at every change a sleeping loop should look at (a token, a new report, a stop).
        var generation = 0
        var stopped = false
        /// A check is under way: checks run one at a time.
        var checking = false
        /// Checks that failed in a row because the server was away.
        var failures = 0
        /// Check attempts so far (started), for tests and `hybrid-bench`.
        var attempts = 0
        /// Reports the server has taken.
        var sent = 0
    }

    let board = WaitingBoard(State())
    private weak var loader: PatchLoader?

    init(settings: PatchServerSettings, app: AppContext, report: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.app = app.name
        appVersion = app.version
        dataDirectory = app.dataDirectory
        allowHost = app.allowsHost
        self.report = report
        reports = PatchReportQueue(dataDirectory: app.dataDirectory)
    }

    var baseURL: String { settings.server + "/v1/apps/" + Self.pathSegment(app) }

    /// Starts the checker (unless app.json says `autoCheck: false`) and the report sender.
    func start(loader: PatchLoader) {
        self.loader = loader
        if settings.autoCheck { Task.detached { [self] in await checkLoop() } }
        Task.detached { [self] in await sendLoop() }
    }

    func stop() {
        board.update { $0.stopped = true; $0.generation += 1 }
    }

    /// `patch.configure {token}`: the device token reports are sent with (nil: none).
    public func configure(token: String?) {
        board.update { $0.token = token; $0.generation += 1 }
    }

    /// Whether a check is under way.
    public var isChecking: Bool { board.read { $0.checking } }

    /// Check attempts started so far, and reports the server has taken.
    public var counts: (checks: Int, sent: Int) { board.read { ($0.attempts, $0.sent) } }

    /// Queues a report (durably) and wakes the sender. A queue that cannot be written is reported
    /// on stderr: the patch's own life goes on.
    func record(_ event: PatchReportQueue.Event, version: Int, reason: String? = nil) {
        do {
            if try reports.record(event, version: version, reason: reason) { board.update { $0.generation += 1 } }
        } catch {
            report("patch \(version): the \(event.rawValue) report could not be queued: \(error.message)")
        }
    }

    // MARK: - The check

    /// What a check did.
    public struct CheckOutcome: Sendable {
        /// "applied" (a newer patch was installed) or "upToDate".
        public var outcome: String
        public var revoked: [Int] = []
        public var refusedRevocations: [(patchVersion: Int?, reason: String)] = []
        /// The server's `checkAfter`, seconds.
        public var checkAfter: Double?
    }

    /// Why a check failed.
    public enum CheckFailure: Error, Sendable {
        /// The server could not be reached (DNS, connect, timeout, ...).
        case transfer(TransferError)
        /// It answered with another status than 200.
        case status(Int, String)
        /// Its answer, or the patch it offered, was refused.
        case patch(PatchError)

        /// The server is away: the check is retried with backoff.
        var serverAway: Bool {
            switch self {
            case .transfer(let error): error.reason != .denied && error.reason != .badURL
            case .status(let status, _): status == 429 || status >= 500
            case .patch: false
            }
        }
    }

    /// One check, after any other under way: sends the check request, applies the revocations,
    /// rebuilds the offered patch's sources (unchanged modules from what runs now, deltas applied),
    /// then verifies and applies it as a dropped-in file.
    public func check(timeoutMs: Int = 30_000) async throws(CheckFailure) -> CheckOutcome {
        await board.wait({ state in
            guard !state.checking else { return nil }
            state.checking = true
            state.attempts += 1
            return ()
        }, otherwise: { _ in () })
        defer { board.update { $0.checking = false; $0.generation += 1 } }
        guard let loader else { throw .patch(PatchError(.storage, "the app has stopped")) }
        return try await check(loader, timeoutMs: timeoutMs)
    }

    private func check(_ loader: PatchLoader, timeoutMs: Int) async throws(CheckFailure) -> CheckOutcome {
        let device: DeviceIdentifier
        do {
            device = try DeviceIdentifier.stored(inDirectory: dataDirectory)
        } catch {
            throw .patch(PatchError(.storage, "\(DeviceIdentifier.fileName): \(error.description)"))
        }
        let running = loader.serverCheckState()
        let modules = PatchRunningSources(appDirectory: loader.trust.appDirectory, patched: running.sources)
        let request = PatchCheck(baseVersion: appVersion, channel: settings.channel, deviceId: device.description, patchVersion: running.current,
                                 highestVersion: running.highest, rolledBack: running.rolledBack, modules: modules.hashes())
        let answer = try await post(baseURL + "/check", body: request.jsonValue, timeoutMs: timeoutMs)
        guard answer.status == 200 else {
            throw .status(answer.status, "the patch server answered \(answer.status) to a check (\(baseURL)/check); expected 200")
        }
        guard case .object(let object)? = try? JSONParser.parse(answer.body) else {
            throw .patch(PatchError(.malformed, "\(baseURL)/check: the answer is not a JSON object"))
        }
        var outcome = CheckOutcome(outcome: "upToDate")
        outcome.checkAfter = object["checkAfter"]?.numberValue
        // Revocations first: an offer the same answer revokes is refused.
        for value in object["revocations"]?.arrayValue ?? [] {
            do throws(PatchError) {
                let revocation = try PatchRevocation(json: value)
                try revocation.verify(app: loader.trust.app, keys: loader.trust.keys)
                // A rollback blocks while the JS thread swaps: off the cooperative pool.
                let revoked: Result<Bool, PatchError> = await DetachedThread.run {
                    do throws(PatchError) { return .success(try loader.revoke(revocation.patchVersion, reason: revocation.reason)) } catch { return .failure(error) }
                }
                if try revoked.get() { outcome.revoked.append(revocation.patchVersion) }
            } catch {
                outcome.refusedRevocations.append((value["patchVersion"]?.intValue, error.message))
                report("\(baseURL)/check: a revocation was refused: \(error.message)")
            }
        }
        guard let offer = object["patch"], offer != .null else { return outcome }
        let patch: SignedPatch
        do throws(PatchError) {
            patch = try PatchOffer.rebuild(offer, runningSource: modules.source)
        } catch {
            throw .patch(error)
        }
        let version = patch.manifest.patchVersion
        if version == running.current { return outcome }
        record(.downloaded, version: version)
        // apply blocks while the JS thread swaps: keep it off the cooperative pool.
        let applied: Result<Int, PatchError> = await DetachedThread.run {
            do throws(PatchError) { return .success(try loader.apply(patch)) } catch { return .failure(error) }
        }
        if case .failure(let error) = applied { throw .patch(error) }
        outcome.outcome = "applied"
        return outcome
    }

    /// A JSON POST to the server, with the device token when there is one.
    private func post(_ url: String, body: JSONValue, timeoutMs: Int, token: String? = nil) async throws(CheckFailure) -> TransferResponse {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json"), ("Accept", "application/json")]
        if let token = token ?? board.read({ $0.token }) { headers.append(("Authorization", "Bearer " + token)) }
        let request = TransferRequest(url: url, method: "POST", headers: headers, body: JSONWriter.bytes(body),
                                      timeoutMs: timeoutMs, maxBytes: PatchService.largestPatch)
        do {
            return try await CurlClient.shared.perform(request, allowHost: allowHost)
        } catch {
            throw .transfer(error)
        }
    }

    // MARK: - The loops

    /// Checks at start, then every `checkEvery` seconds (or the server's `checkAfter`); while the
    /// server is away, waits `checkEvery` × 2^failures (with a tenth of jitter), up to
    /// ``longestCheckWait``.
    private func checkLoop() async {
        while !board.read({ $0.stopped }) {
            var wait = settings.checkEvery
            do {
                let outcome = try await check()
                board.update { $0.failures = 0 }
                if let after = outcome.checkAfter, after > 0 { wait = after }
            } catch {
                if error.serverAway {
                    let failures = board.update { state -> Int in
                        state.failures += 1
                        return state.failures
                    }
                    wait = Self.backoff(settings.checkEvery, failures: failures, longest: max(settings.checkEvery, Self.longestCheckWait))
                } else if case .patch(let refusal) = error, refusal.message.hasSuffix("the app has stopped") {
                    return
                } else {
                    report("patch check (\(settings.server)): \(Self.describe(error))")
                }
            }
            await sleep(seconds: wait, wakeOnChange: false)
        }
    }

    /// Sends the queued reports, oldest first, while a token is known; retries with backoff while
    /// the server is away; waits for a new token when the server refuses the one it has.
    private func sendLoop() async {
        var failures = 0
        while true {
            let (stopped, token) = board.read { ($0.stopped, $0.token) }
            if stopped { return }
            guard let token, let entry = reports.pending.first else {
                await sleep(seconds: nil, wakeOnChange: true)
                continue
            }
            let status: Int
            do {
                status = try await post(baseURL + "/reports", body: entry.body, timeoutMs: 30_000, token: token).status
            } catch {
                status = error.serverAway ? 0 : -1
            }
            switch status {
            case 200..<300:
                failures = 0
                try? reports.remove(entry)
                board.update { $0.sent += 1 }
            case 401, 403:
                report("patch reports: the patch server refused the device token (\(status)); reports wait for patch.configure with another")
                let seen = token
                await board.wait({ state in state.stopped || state.token != seen ? () : nil }, otherwise: { _ in () })
            case 0, 429, 500...:
                failures += 1
                await sleep(seconds: Self.backoff(Self.firstReportWait, failures: failures - 1, longest: Self.longestReportWait), wakeOnChange: false)
            default:
                // Refused for good (a 400, 404, 422, or the host not granted): kept no longer.
                report("patch reports: the patch server refused the \(entry.event.rawValue) report of patch \(entry.patchVersion) (\(status < 0 ? "not sent" : String(status))); it is dropped")
                try? reports.remove(entry)
            }
        }
    }

    /// `base` × 2^failures, up to `longest`, with up to a tenth of jitter either way.
    static func backoff(_ base: Double, failures: Int, longest: Double) -> Double {
        let wait = min(longest, base * Double(1 << min(failures, 40)))
        return wait * Double.random(in: 0.9...1.1)
    }

    /// Sleeps `seconds` (nil: until a change), or until the client stops; `wakeOnChange`: until
    /// any change too (a token, a new report).
    private func sleep(seconds: Double?, wakeOnChange: Bool) async {
        let generation = board.read { $0.generation }
        let deadline = seconds.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) }
        await board.wait(until: deadline, { state in
            state.stopped || (wakeOnChange && state.generation != generation) ? () : nil
        }, otherwise: { _ in () })
    }

    static func describe(_ failure: CheckFailure) -> String {
        switch failure {
        case .transfer(let error): error.description
        case .status(_, let message): message
        case .patch(let error): error.message
        }
    }

    /// `app` as one URL path segment.
    static func pathSegment(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let char = Character(Unicode.Scalar(byte))
            if char.isASCII && (char.isLetter || char.isNumber || "-._~".contains(char)) {
                out.append(char)
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
