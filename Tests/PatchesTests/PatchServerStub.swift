import Foundation
import HostTesting
import Hummingbird
import JSON
import PatchProtocol
import Patches
import SystemIO

/// A small patch server on 127.0.0.1 that follows the patch protocol's device endpoints, for the
/// loader's side: `POST /v1/apps/{app}/check` answers with the patch a test offers (each module
/// sent whole, as `unchanged` when the device runs its hash, or as a delta from a source the
/// test registers) and the revocations it hands out; `POST /v1/apps/{app}/reports` records the
/// reports with their token. `away` makes both answer 503.
final class PatchServerStub: @unchecked Sendable {
    struct Report: Equatable, Sendable {
        var patchVersion: Int
        var event: String
        var reason: String?
        var token: String?
    }

    private struct State {
        var offer: SignedPatch?
        /// Old sources by module, that a delta may be made from (sha256 → source).
        var deltaSources: [String: String] = [:]
        var revocations: [JSONValue] = []
        var checks: [JSONValue] = []
        var checkTimes: [Date] = []
        var reports: [Report] = []
        var away = false
        var acceptedToken: String?
        var lastOffer: JSONValue?
    }

    private let state = Locked(State())
    private var server: LocalHTTPServer?

    var base: String { server?.base ?? "" }

    func offer(_ patch: SignedPatch?) { state.withLock { $0.offer = patch } }
    func registerDeltaSource(_ source: String) { state.withLock { $0.deltaSources[SignedPatch.sha256(source)] = source } }
    func revoke(_ revocation: JSONValue) { state.withLock { $0.revocations.append(revocation) } }
    func setAway(_ away: Bool) { state.withLock { $0.away = away } }
    /// Reports are taken only with this token (nil: any).
    func accept(token: String?) { state.withLock { $0.acceptedToken = token } }
    var checks: [JSONValue] { state.value.checks }
    var checkTimes: [Date] { state.value.checkTimes }
    var reports: [Report] { state.value.reports }
    var lastOffer: JSONValue? { state.value.lastOffer }

    func start(port: Int = 0) async throws {
        let router = Router()
        router.post("/v1/apps/:app/check") { [self] request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let json = try JSONParser.parse(String(buffer: body))
            let answer = state.withLock { state -> JSONValue? in
                state.checks.append(json)
                state.checkTimes.append(Date())
                if state.away { return nil }
                var answer: JSONObject = ["patch": .null, "revocations": .array(state.revocations)]
                if let offer = state.offer, offer.manifest.patchVersion > (json["highestVersion"]?.intValue ?? 0) {
                    let patch = self.wire(offer, deviceModules: json["modules"]?.objectValue ?? [:], deltaSources: state.deltaSources)
                    state.lastOffer = patch
                    answer["patch"] = patch
                }
                return .object(answer)
            }
            guard let answer else { return Response(status: .serviceUnavailable) }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: JSONWriter.write(answer))))
        }
        router.post("/v1/apps/:app/reports") { [self] request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let json = try JSONParser.parse(String(buffer: body))
            let token = request.headers[.authorization].map { String($0.dropFirst("Bearer ".count)) }
            let status = state.withLock { state -> HTTPResponse.Status in
                if state.away { return .serviceUnavailable }
                if let accepted = state.acceptedToken, accepted != token { return .unauthorized }
                state.reports.append(Report(patchVersion: json["patchVersion"]?.intValue ?? -1, event: json["event"]?.stringValue ?? "",
                                            reason: json["reason"]?.stringValue, token: token))
                return .ok
            }
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        server = try await LocalHTTPServer.start(router: router, label: "patch-server-stub", port: port)
    }

    func stop() async { await server?.stop() }

    /// The offer as the protocol sends it (PatchProtocol's `PatchOffer.make`, the server's own):
    /// a module the device runs is `unchanged`, one whose running source the stub holds comes as
    /// a delta when that is smaller, the rest whole.
    private func wire(_ patch: SignedPatch, deviceModules: JSONObject, deltaSources: [String: String]) -> JSONValue {
        var modules: [String: String] = [:]
        for (name, value) in deviceModules { if let hash = value.stringValue { modules[name] = hash } }
        return PatchOffer.make(patch: patch.jsonValue, deviceModules: modules, knownSource: { _, sha in deltaSources[sha] })
    }
}
