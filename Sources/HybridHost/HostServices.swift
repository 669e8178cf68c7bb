import Bridge
import Device
import Engine
import JSON
import KeyValueStore
import Networking
import Patches
import Persistence
import Storage
import Sync
import SyncClient
import Views
import WebPlatform

/// The host's identity and the services it registers: the one place that knows them all.
public enum HostServices {
    public static let hostVersion = "0.1.0"

    /// "JavaScriptCore (WebKitGTK 2.50.6)".
    public static var engineName: String { "JavaScriptCore (WebKitGTK \(JSEngine.webKitVersion))" }

    /// Every service, registered explicitly, with state of their own: each call makes a new set
    /// for one app run, which nothing outside the run shares, and which goes with the run. Storage
    /// and sync share the run's databases: one write path per file, which journals the writes to
    /// synced tables for sync. `keyValueStores` are the run's kv stores, which the web platform's
    /// `localStorage` writes too (``AppSession``).
    public static func registry(patchLoaders: PatchLoaders = PatchLoaders(), keyValueStores: KeyValueStores = KeyValueStores()) -> ServiceRegistry {
        let databases = DataCenterRegistry(journal: SyncDatabaseJournal.self)
        return ServiceRegistry([
            DeviceService(hostVersion: hostVersion, engine: engineName),
            ViewService(),
            StorageService(registry: databases),
            KeyValueService(stores: keyValueStores),
            PatchService(loaders: patchLoaders),
            NetworkService(hostEntries: DataFolderLayout.hostEntries, userAgent: WebPlatformOptions(hostVersion: hostVersion).userAgent),
            SyncService(registry: databases),
        ])
    }

    /// The contracts embedded from `services/*.json`, by target. A broken contract is a build
    /// defect, caught by `make test` (`hybrid contracts check`).
    public static func contracts() throws(ContractError) -> [String: Contract] {
        var contracts: [String: Contract] = [:]
        for (name, source) in EmbeddedContracts.sources {
            let contract = try Contract(text: source, file: "services/\(name).json")
            guard contract.target == name else {
                throw ContractError(message: "services/\(name).json: target: expected \"\(name)\", the file's name")
            }
            contracts[name] = contract
        }
        return contracts
    }

    /// The targets an app may name in its grants.
    public static var knownTargets: Set<String> { registry().targets.union(["bridge"]) }
}
