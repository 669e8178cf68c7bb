// The HybridHost module assembles an app run: manifest, grants, data folder, engine, bridge and
// services. It is the only place that knows every service; it must not hold business logic.
import Bridge
import Engine
import Glibc
import InspectorHub
import JSON
import KeyValueStore
import PatchProtocol
import Patches
import SystemIO
import WebPlatform

/// How to run an app.
public struct AppRunOptions: Sendable {
    /// Default: `$XDG_DATA_HOME/hybridhost/<app name>`.
    public var dataDirectory: String?
    /// `--grant` entries, added to the app's own.
    public var grantFlags: [String] = []
    public var timeLimitSeconds: Double?
    public var arguments: [String] = []
    /// Check results against contracts (`hybrid test` does).
    public var validatesResults = false
    /// Captures console output (tests); stdout and stderr when nil.
    public var output: (@Sendable (Int32, String) -> Void)?
    /// Contracts that stand in for the embedded ones of the same target: `hybrid-bench schema`
    /// measures `bridge.echo` under a richer params schema this way.
    public var contractOverrides: [String: Contract] = [:]
    /// Takes uncaught errors instead of ending the run (`hybrid repl`; ``EngineOptions/uncaught``).
    public var uncaught: (@Sendable (ScriptError) -> Void)?
    /// `hybrid run --watch`, and nothing else: edited modules may be swapped in place from disk,
    /// unsigned (``AppSession/reload(_:)``). The patch drop folder is not watched then.
    public var hotReload = false
    /// `hybrid run --patch-server URL`: the patch server to check instead of app.json's.
    public var patchServer: String?
    /// `hybrid run --inspect` / `--inspect-brk`: the app's context served to a debugger.
    public var inspect: InspectOptions?
    /// `hybrid test --inspect`: the run's hub, which this session's context joins as the target
    /// named so; the session does not close it.
    var inspectorTarget: (inspector: TestInspector, name: String)?
    /// False: app.json's `quotas.memoryBytes` is not enforced. The guard reads the process's
    /// resident memory, which is every session's in a process that runs many (the Swift tests).
    public var guardsMemory = true

    public init(dataDirectory: String? = nil, grantFlags: [String] = [], timeLimitSeconds: Double? = nil,
                arguments: [String] = [], validatesResults: Bool = false) {
        self.dataDirectory = dataDirectory
        self.grantFlags = grantFlags
        self.timeLimitSeconds = timeLimitSeconds
        self.arguments = arguments
        self.validatesResults = validatesResults
    }
}

/// `--inspect[=PORT]` and `--inspect-brk[=PORT]`.
public struct InspectOptions: Sendable, Equatable {
    /// On 127.0.0.1; 0 for a free one.
    public var port: Int
    /// `--inspect-brk`: wait for a debugger, then pause at the main module's first statement.
    public var breakOnStart: Bool

    public init(port: Int = 0, breakOnStart: Bool = false) {
        self.port = port
        self.breakOnStart = breakOnStart
    }
}

/// One app, loaded into an engine with its bridge installed, ready to run its main module.
public final class AppSession: Sendable {
    public let manifest: AppManifest
    public let app: AppContext
    public let engine: JSEngine
    public let bridge: BridgeDispatcher
    /// Signed patches of this run (issue 6).
    public let patches: PatchLoader
    /// Whether ``reload(_:)`` may swap modules (`hybrid run --watch`).
    public let hotReload: Bool
    /// Under `--inspect`: the hub a debugger attaches to (its ``InspectorHub/frontendURL``).
    public let inspector: InspectorHub?
    /// False when the hub is the test run's (``AppRunOptions/inspectorTarget``).
    private let ownsInspector: Bool

    /// Loads the manifest, checks grants, prepares the data folder and installs the bridge.
    public convenience init(path: String, options: AppRunOptions) throws(AppLoadError) {
        try self.init(manifest: AppManifest.load(path: path, grantFlags: options.grantFlags), options: options)
    }

    /// An app described by `manifest` (a REPL's scratch app has no file of its own).
    public init(manifest: AppManifest, options: AppRunOptions) throws(AppLoadError) {
        let contracts: [String: Contract]
        do {
            contracts = try HostServices.contracts().merging(options.contractOverrides) { _, override in override }
        } catch {
            throw AppLoadError("internal: \(error)")
        }
        let patchLoaders = PatchLoaders()
        // One kv store per file for the run: the kv service's and localStorage's.
        let keyValueStores = KeyValueStores()
        let registry = HostServices.registry(patchLoaders: patchLoaders, keyValueStores: keyValueStores)
        let grants: Grants
        do {
            grants = try Grants.parse(manifest.grants, registry: registry, source: manifest.grantSource)
        } catch {
            throw AppLoadError(error.message)
        }
        let dataDirectory = options.dataDirectory.map(FileSystem.absolute) ?? Self.defaultDataDirectory(app: manifest.name)
        do {
            try FileSystem.createDirectories(dataDirectory)
        } catch {
            throw AppLoadError("--data-dir: cannot create \(dataDirectory): \(error.reason)")
        }
        let app = AppContext(name: manifest.name, version: manifest.version, dataDirectory: dataDirectory,
                             grants: grants, arguments: options.arguments, quotas: manifest.quotas,
                             network: manifest.network)
        var engineOptions = EngineOptions(timeLimitSeconds: options.timeLimitSeconds, memoryLimitBytes: options.guardsMemory ? manifest.quotas.memoryBytes : nil,
                                          output: options.output, uncaught: options.uncaught, hotReload: options.hotReload)
        let inspector = try options.inspect.map { inspect throws(AppLoadError) in
            try Self.startInspector(inspect, manifest: manifest, engineOptions: &engineOptions)
        }
        if let target = options.inspectorTarget {
            engineOptions.inspection = InspectionSettings(hubAddress: target.inspector.hub.targetAddress, contextName: target.name)
        }
        let engine = JSEngine(options: engineOptions)
        inspector?.engine.set(engine)
        options.inspectorTarget?.inspector.slot.set(engine)
        let bridge = BridgeDispatcher(registry: registry, contracts: contracts, app: app,
                                      options: BridgeOptions(validatesResults: options.validatesResults))
        do {
            let web = WebPlatform(options: WebPlatformOptions(
                hostVersion: HostServices.hostVersion,
                localStorage: WebStorageLocation(stores: keyValueStores, directory: dataDirectory),
                storageQuotaBytes: manifest.quotas.kvBytes))
            try engine.performAndWait { context in
                try web.install(into: context)
                try bridge.install(into: context, engine: engine)
            }
        } catch {
            engine.shutdown()
            inspector?.hub.close()
            throw AppLoadError("internal: the bridge client failed to load: \(error)")
        }
        // Patches: a patch launched before and never confirmed is rolled back, the one in effect
        // is loaded before the main module runs, and <data dir>/patches/ is watched.
        let output = options.output
        let trust = PatchTrust(app: manifest.name, appVersion: manifest.version, keys: manifest.patchKeys, appDirectory: manifest.directory)
        var server = manifest.patchServer
        if let override = options.patchServer {
            do {
                server = try PatchServerSettings.overriding(server, server: override, source: "--patch-server", patchKeys: manifest.patchKeys)
            } catch {
                engine.shutdown()
                inspector?.hub.close()
                throw AppLoadError(error.description, usage: true)
            }
        }
        do {
            patches = try PatchLoader(app: app, trust: trust, engine: engine, loaders: patchLoaders, server: server) { message in
                if let output { output(2, "hybrid: \(message)\n") } else { StandardStreams.write("hybrid: \(message)\n", to: 2) }
            }
        } catch {
            engine.shutdown()
            inspector?.hub.close()
            throw AppLoadError("\(PatchLedger.directory(dataDirectory: dataDirectory)): \(error.message)")
        }
        if !manifest.patchKeys.isEmpty && !options.hotReload { patches.watchDropFolder() }
        hotReload = options.hotReload
        self.inspector = inspector?.hub ?? options.inspectorTarget?.inspector.hub
        ownsInspector = inspector != nil
        self.manifest = manifest
        self.app = app
        self.engine = engine
        self.bridge = bridge
    }

    /// The hub, started before the engine so that its context connects to it from the start.
    private static func startInspector(_ inspect: InspectOptions, manifest: AppManifest,
                                       engineOptions: inout EngineOptions) throws(AppLoadError) -> (hub: InspectorHub, engine: EngineSlot) {
        do {
            try RemoteInspection.check()
        } catch {
            throw AppLoadError("--inspect: \(error)")
        }
        let slot = EngineSlot()
        let name = "hybrid:\(manifest.name):\(getpid())"
        let hub: InspectorHub
        do {
            hub = try InspectorHub.start(InspectorHubOptions(port: inspect.port, targetName: name, breakOnStart: inspect.breakOnStart) { slot.get()?.serveInspector() })
        } catch {
            throw AppLoadError(error.description)
        }
        engineOptions.inspection = InspectionSettings(hubAddress: hub.targetAddress, contextName: name)
        return (hub, slot)
    }

    static func defaultDataDirectory(app: String) -> String {
        let environment = ProcessEnvironment.self
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return "\(xdg)/hybridhost/\(app)" }
        return "\(environment["HOME"] ?? "/tmp")/.local/share/hybridhost/\(app)"
    }

    /// Runs the main module, then the event loop until idle. Returns how it ended.
    public func run() -> EngineOutcome {
        let main = manifest.mainPath
        let engine = self.engine
        if let inspector, !inspector.released {
            engine.waitForDebugger { inspector.released }
        }
        engine.post { context in
            do throws(ScriptError) {
                try context.runMain(main)
            } catch {
                engine.fail(error)
            }
        }
        return engine.waitUntilIdle()
    }

    /// `hybrid run --watch` only: swaps the changed files that the app has loaded in place, read
    /// from disk and transformed as loading does, through the module registry's replace path
    /// (`js/runtime/modules.js`, `reload`), as a task of its own on the JS thread. Unsigned and
    /// unrecorded: a session made without ``AppRunOptions/hotReload`` has no such path and
    /// answers ``ModuleReload/stopped``. Blocks the caller: never call it from the JS thread.
    public func reload(_ filenames: [String]) -> ModuleReload {
        guard hotReload else { return .stopped }
        let paths: JSONValue = .array(filenames.map { .string($0) })
        do {
            return try engine.performAndWait { context -> ModuleReload in
                guard let registry = context.object(context.get(context.global, "__hybridModules")),
                      let reload = context.object(context.get(registry, "reload")) else { return .stopped }
                let answer = Result { () throws(ScriptError) in try context.call(reload, this: registry, [context.jsValue(from: paths)]) }
                guard case .success(let value) = answer else {
                    if case .failure(let error) = answer { return .threw(error) }
                    return .stopped
                }
                guard let result = context.object(value) else { return .stopped }
                let file = context.stringify(context.get(result, "filename"))
                switch context.stringify(context.get(result, "outcome")) {
                case "swapped":
                    let names = (try? context.jsonValue(from: context.get(result, "filenames")))?.arrayValue ?? []
                    return .swapped(names.compactMap(\.stringValue))
                case "restart":
                    return .restart(file: file, reason: context.stringify(context.get(result, "reason")))
                case "invalid":
                    return .invalid(file: file, context.scriptError(from: context.get(result, "error")))
                default:
                    return .unchanged
                }
            }
        } catch {
            return .stopped
        }
    }

    /// The files of the modules the app has loaded (the registry's cache), absolute paths;
    /// empty once the engine has stopped.
    public func loadedModules() -> [String] {
        (try? engine.performAndWait { context -> [String] in
            guard let keys = try? context.evaluate("Array.from(__hybridModules.cache.keys())", url: "hybrid:watch"),
                  case .array(let names)? = try? context.jsonValue(from: keys) else { return [] }
            return names.compactMap(\.stringValue)
        }) ?? []
    }

    /// After ``run()`` ended idle: node's warning when the main module's top-level await never
    /// settled (the loop ran out of work while it waited; `hybrid run` then exits 13, as node
    /// does), naming where each module still waits; nil when it settled or never awaited.
    public func unsettledTopLevelAwait() -> String? {
        try? engine.performAndWait { context -> String? in
            guard let warning = try? context.evaluate("__hybridModules.unsettled()", url: "hybrid:unsettled"),
                  case .string(let text)? = try? context.jsonValue(from: warning) else { return nil }
            return text
        }
    }

    /// Ends the run: pending calls are rejected with E_SHUTDOWN, the JS thread stops.
    public func shutdown() {
        patches.stop()
        engine.shutdown()
        if ownsInspector { inspector?.close() }
    }

    deinit {
        patches.stop()
        engine.shutdown()
        if ownsInspector { inspector?.close() }
    }

    /// The text printed for an uncaught error.
    public static func report(_ error: ScriptError, timeLimit: Double?) -> String {
        var error = error
        if error.isTimeLimit {
            let limit = timeLimit.map { "\(Self.formatSeconds($0)) s" } ?? "the time limit"
            error.name = "TimeLimitError"
            error.thrownNonError = false
            error.message = "a synchronous run of JS took longer than \(limit) (--time-limit) and was stopped"
        }
        if error.isMemoryLimit {
            error.message += " (app.json quotas.memoryBytes)"
        }
        return "Uncaught " + error.description
    }

    static func formatSeconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
