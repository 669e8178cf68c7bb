import Bridge
import Foundation
import HybridHost
import JSON
import Networking

/// The network service called the way the bridge calls it (validated params aside), with an app
/// whose grants and data folder the test chooses.
struct NetworkCall {
    let grants: Grants
    /// One service for the test, as an app run has one: shared GETs and progress live in it.
    let service: NetworkService
    let dataDirectory: String
    let quotas: AppQuotas
    let network: AppNetworkSettings

    /// `dataDirectory`: the app's data folder, when not a fresh one under the temporary folder.
    /// `hostEntries`: what downloads may not write into, by default what an app run protects.
    init(grants: [String] = ["network"], dataDirectory: String? = nil, quotas: AppQuotas = .defaults,
         network: AppNetworkSettings = .defaults, hostEntries: HostEntries = DataFolderLayout.hostEntries) throws {
        self.quotas = quotas
        self.network = network
        service = NetworkService(hostEntries: hostEntries)
        // As an app run parses them: hosts in the network service's canonical form.
        self.grants = try Grants.parse(grants, registry: ServiceRegistry([NetworkService()]), source: "test")
        self.dataDirectory = dataDirectory ?? NSTemporaryDirectory() + "network-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: self.dataDirectory, withIntermediateDirectories: true)
    }

    /// The app every call comes from (a new context each time, as alike as one app's calls are).
    var app: AppContext {
        AppContext(name: "network-tests", version: "1.0.0", dataDirectory: dataDirectory, grants: grants, quotas: quotas, network: network)
    }

    func callAsFunction(_ action: String, _ params: JSONValue) async throws -> JSONValue {
        return try await service.actions[action]!.perform(ServiceCall(target: "network", action: action, params: params, app: app))
    }

    /// The error a call failed with; the test fails if it succeeded.
    func failure(_ action: String, _ params: JSONValue) async -> BridgeError? {
        do {
            _ = try await self(action, params)
            return nil
        } catch let error as BridgeError {
            return error
        } catch {
            return BridgeError(.failed, "not a BridgeError: \(error)")
        }
    }

    /// The errors `request`, and `download` into `path`, fail with for the same params.
    func failures(requestAndDownload params: JSONObject, path: String = "got.bin") async -> [(action: String, error: BridgeError?)] {
        var download = params
        download["path"] = .string(path)
        return [("request", await failure("request", .object(params))), ("download", await failure("download", .object(download)))]
    }

    func remove() { try? FileManager.default.removeItem(atPath: dataDirectory) }
}

/// One server for the whole test run: tests keep their hit counts apart by naming their routes.
enum SharedServer {
    private static let server = Task { try await TestHTTPServer.start() }
    static func get() async throws -> TestHTTPServer { try await server.value }
}
