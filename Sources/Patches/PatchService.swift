import Bridge
import CurlTransport
import Foundation
import JSON
import PatchProtocol
import SystemIO

/// The `patch` target (`services/patch.json`): JS confirms the patch it runs on (`ready`), asks
/// which one that is (`current`) and what happened before (`history`), and fetches patches from
/// an HTTP patch endpoint (`check`), as CodePush's `checkForUpdate` + `install` in one call.
public struct PatchService: BridgeService {
    public let target = "patch"
    /// Where this run's loader is found.
    private let loaders: PatchLoaders

    public init(loaders: PatchLoaders = PatchLoaders()) {
        self.loaders = loaders
    }

    public var actions: [String: ServiceAction] {
        [
            "check": .worker(PatchCheckParams.self) { call, params in try await check(call, params) },
            // Inline, on the JS thread: the patch it confirms is the one the JS thread runs as the
            // call is made, never one swapped in while a worker had the call.
            "ready": .inline { call in
                let loader = try loader(call)
                do throws(PatchError) {
                    let record = try loader.confirm(loader.runningVersion)
                    return Self.current(loader, record: record)
                } catch {
                    throw BridgeError.failed(reason: error.code.rawValue, error.message)
                }
            },
            "configure": .inline(PatchConfigureParams.self) { call, params in
                let loader = try loader(call)
                guard let server = loader.server else {
                    throw BridgeError.failed(reason: "no_server", "patch.configure: app.json has no \"patches\" with a server to report to")
                }
                server.configure(token: params.token)
                return ["pendingReports": .number(Double(server.reports.pending.count))]
            },
            "current": .inline { call in
                let loader = try loader(call)
                return Self.current(loader, record: loader.current.patchVersion.flatMap { v in loader.history.last { $0.patchVersion == v } })
            },
            "history": .inline { call in
                let loader = try loader(call)
                return ["records": .array(loader.history.reversed().map(\.jsonValue))]
            },
        ]
    }

    /// Largest patch file accepted from an endpoint.
    static let largestPatch = 16 << 20

    /// GETs the endpoint, telling it which app, app version and patch this is; a 204 or 304 means
    /// nothing newer, a 200 carries a signed patch file, which is verified and applied exactly as
    /// one dropped into the patches folder. The endpoint's host needs a `network:HOST` grant: a
    /// patch is code, and its source must be one the app was allowed to reach.
    func check(_ call: ServiceCall, _ params: PatchCheckParams) async throws(BridgeError) -> JSONValue {
        let loader: PatchLoader
        do { loader = try self.loader(call) } catch { throw error as? BridgeError ?? BridgeError(.failed, "\(error)") }
        guard let url = params.url else { return try await checkServer(loader, params) }
        let request = TransferRequest(url: url, headers: [
            ("Accept", "application/json"), ("X-Hybrid-App", call.app.name), ("X-Hybrid-App-Version", call.app.version),
            ("X-Hybrid-Patch-Version", String(loader.highestVersion)),
        ], timeoutMs: params.timeoutMs, maxBytes: Self.largestPatch)
        let response: TransferResponse
        do {
            response = try await CurlClient.shared.perform(request, allowHost: call.app.allowsHost)
        } catch {
            throw error.bridgeError
        }
        switch response.status {
        case 204, 304:
            return Self.current(loader, outcome: "upToDate")
        case 200:
            break
        default:
            throw BridgeError.failed(reason: "http_status", "the patch endpoint \(url) answered \(response.status); expected 200 with a patch, or 204 when there is none",
                                     details: ["status": .number(Double(response.status))])
        }
        let patch: SignedPatch
        do throws(PatchError) {
            patch = try SignedPatch.parse(String(decoding: response.body, as: UTF8.self), file: url)
        } catch {
            throw BridgeError.failed(reason: error.code.rawValue, error.message)
        }
        // The endpoint offering the patch the app already runs is "nothing newer", not a replay.
        if patch.manifest.patchVersion == loader.highestVersion, loader.current.patchVersion == patch.manifest.patchVersion {
            return Self.current(loader, outcome: "upToDate")
        }
        // apply blocks while the JS thread swaps: keep it off the cooperative pool.
        let outcome: Result<Int, PatchError> = await DetachedThread.run {
            do throws(PatchError) { return .success(try loader.apply(patch)) } catch { return .failure(error) }
        }
        if case .failure(let error) = outcome { throw BridgeError.failed(reason: error.code.rawValue, error.message) }
        return Self.current(loader, outcome: "applied")
    }

    /// `patch.check {}`: asks app.json's patch server.
    private func checkServer(_ loader: PatchLoader, _ params: PatchCheckParams) async throws(BridgeError) -> JSONValue {
        guard let server = loader.server else {
            throw BridgeError.badParams("/url", "patch.check: expected a url, or app.json \"patches\" with a server")
        }
        let outcome: PatchServerClient.CheckOutcome
        do {
            outcome = try await server.check(timeoutMs: params.timeoutMs)
        } catch {
            switch error {
            case .transfer(let failure): throw failure.bridgeError
            case .status(let status, let message): throw BridgeError.failed(reason: "http_status", message, details: ["status": .number(Double(status))])
            case .patch(let refusal): throw BridgeError.failed(reason: refusal.code.rawValue, refusal.message)
            }
        }
        var object = Self.current(loader, outcome: outcome.outcome).objectValue ?? [:]
        object["revocations"] = [
            "applied": .array(outcome.revoked.map { .number(Double($0)) }),
            "refused": .array(outcome.refusedRevocations.map { refused in
                ["patchVersion": refused.patchVersion.map { .number(Double($0)) } ?? .null, "reason": .string(refused.reason)]
            }),
        ]
        return .object(object)
    }

    private static func current(_ loader: PatchLoader, outcome: String) -> JSONValue {
        var object = Self.current(loader, record: loader.current.patchVersion.flatMap { v in loader.history.last { $0.patchVersion == v } }).objectValue ?? [:]
        object["outcome"] = .string(outcome)
        return .object(object)
    }

    func loader(_ call: ServiceCall) throws -> PatchLoader {
        guard let loader = loaders.loader(for: call.app) else {
            throw BridgeError.failed(reason: "unavailable", "patch: this app run has no patch loader")
        }
        return loader
    }

    static func current(_ loader: PatchLoader, record: PatchRecord?) -> JSONValue {
        let current = loader.current
        return [
            "patchVersion": current.patchVersion.map { .number(Double($0)) } ?? .null,
            "state": record.map { .string($0.state.rawValue) } ?? "shipped",
            "epoch": .number(Double(current.epoch)),
            "highestVersion": .number(Double(loader.highestVersion)),
        ]
    }
}
