// The Patches module: signed hot-swap of JS modules in a running app, with rollback.
// It must never run a patch that has not been verified against app.json's patchKeys, never
// swap code except as a task of its own on the JS thread, and never leave a patch half-applied.
import Bridge
import Engine
import JSON
import PatchProtocol
import SystemIO

/// The patches of one running app: verifies and applies them, counts faults of amended
/// functions, confirms and rolls back, keeping the ledger in the data dir.
///
/// ```swift
/// let loader = try PatchLoader(app: app, trust: trust, engine: engine)   // before the main module runs
/// try loader.apply(SignedPatch.parse(text))     // from any thread but the JS thread
/// try loader.confirm()                          // what patch.ready does
/// ```
///
/// `apply` and `rollback` block their caller while the swap runs on the JS thread: never call
/// them from the JS thread.
// @unchecked: `ledger`, `epoch`, `faults`, `timings`, `watcher` are behind `state` (init aside, before publication); `scratch` is used only under `serial`; `faultHook` is touched only inside `performAndWait`, on the JS thread.
public final class PatchLoader: @unchecked Sendable {
    /// Rollback of an unconfirmed patch after this many throws of its amended functions.
    public static let defaultFaultLimit = 3
    /// The drop folder's name in the data folder, one of the host's own entries.
    public static let dropFolderName = "patches"

    public let trust: PatchTrust
    public let dataDirectory: String
    public let faultLimit: Int
    let engine: JSEngine
    let appIdentity: ObjectIdentifier
    /// The run's registry the `patch` service finds this loader in.
    private let loaders: PatchLoaders?
    /// Where rollbacks and drop-folder refusals are reported (stderr in `hybrid run`).
    let report: @Sendable (String) -> Void

    private let state = PatchLock()
    /// Made at the first apply (a second VM: not every run needs one), reused under `serial`:
    /// making a context costs more than checking a small patch.
    private lazy var scratch = SyntaxChecker()
    private let serial = PatchLock()
    // Under `state`.
    private var ledger: PatchLedger
    private var epoch = 0
    private var faults: [Int: Int] = [:]
    private var timings = PatchTimings()
    private var watcher: PatchDropFolder?
    /// The patch the JS thread runs (0: the shipped code), set by the swap as it ends, on the JS
    /// thread: what `patch.ready` confirms. The ledger's `current` follows a moment later, once
    /// the swap is recorded.
    private var running = 0
    /// A `ready` that named the patch the JS thread had just swapped to, before the ledger
    /// recorded it: confirmed as it is recorded.
    private var confirmOnRecord: Int?
    /// The patch server's side (app.json `patches`): reports, checks. Nil without a server.
    public let server: PatchServerClient?
    // JS thread only.
    private var faultHook: ScriptObject?

    /// Rolls back a patch that was launched before and never confirmed, then loads the patch in
    /// effect (if any) so that the main module starts on it. Call before the main module runs.
    public init(app: AppContext, trust: PatchTrust, engine: JSEngine, loaders: PatchLoaders? = nil,
                faultLimit: Int = PatchLoader.defaultFaultLimit, server settings: PatchServerSettings? = nil,
                report: @escaping @Sendable (String) -> Void = { _ in }) throws(PatchError) {
        self.trust = trust
        dataDirectory = app.dataDirectory
        self.engine = engine
        self.faultLimit = faultLimit
        self.report = report
        appIdentity = ObjectIdentifier(app)
        ledger = try PatchLedger.load(dataDirectory: app.dataDirectory)
        self.loaders = loaders
        server = settings.map { PatchServerClient(settings: $0, app: app, report: report) }
        try installFaultHook()
        try startUp()
        loaders?.register(self, for: appIdentity)
        server?.start(loader: self)
    }

    deinit {
        loaders?.unregister(appIdentity)
    }

    // MARK: - What JS and the CLI see

    /// The patch in effect (nil: shipped code), its state and the module registry's epoch.
    public var current: (patchVersion: Int?, state: PatchRecord.State?, epoch: Int) {
        state.withLock {
            let version = ledger.current
            return (version, version.flatMap { ledger.record($0)?.state }, epoch)
        }
    }

    public var history: [PatchRecord] { state.withLock { ledger.records } }

    public var highestVersion: Int { state.withLock { ledger.highestVersion } }

    /// How long each phase of the last apply took.
    public var lastTimings: PatchTimings { state.withLock { timings } }

    // MARK: - Applying

    /// Verifies `patch`, compiles its sources off the JS thread, then swaps it in as a task on the
    /// JS thread. A refusal changes nothing; a module that throws while loading rolls the patch
    /// back (recorded) and throws ``PatchError/Code/threw``. Returns the new epoch.
    @discardableResult
    public func apply(_ patch: SignedPatch, now: Double = PatchClock.now()) throws(PatchError) -> Int {
        try serial.withLock { () throws(PatchError) -> Int in
            let started = MonotonicClock.now()
            let known = state.withLock { ledger }
            try known.checkNotRevoked(patch.manifest.patchVersion)
            let highest = known.highestVersion
            try PatchVerifier.verify(patch, trust: trust, highestVersion: highest, now: now)
            let verified = MonotonicClock.now()
            try scratch.check(patch)
            let compiled = MonotonicClock.now()
            let version = patch.manifest.patchVersion
            do throws(PatchError) {
                // The patch's file first: without room for it, nothing has changed yet.
                var next = state.withLock { ledger }
                try next.verified(patch)
                let newEpoch: Int
                do throws(PatchError) {
                    newEpoch = try swap(to: patch)
                } catch where error.code != .threw {
                    next.discardFile(of: version)
                    throw error
                }
                let swapped = MonotonicClock.now()
                do throws(PatchError) {
                    try state.withLock { () throws(PatchError) in
                        next.applied(version, launched: true)
                        let confirmed = confirmOnRecord == version
                        if confirmed { next.confirmed(version) }
                        try next.save()
                        ledger = next
                        confirmOnRecord = nil
                        faults[version] = 0
                        server?.record(.applied, version: version)
                        if confirmed { server?.record(.confirmed, version: version) }
                        let done = MonotonicClock.now()
                        timings.verify = verified - started
                        timings.compile = compiled - verified
                        timings.swap = swapped - compiled
                        timings.ledger = done - swapped
                        timings.total = done - started
                    }
                } catch {
                    // The ledger could not record it (a full disk): the app goes back to what the
                    // ledger says it runs, so that a restart runs the same code.
                    let previous = try? state.withLock { () throws(PatchError) -> SignedPatch? in
                        try ledger.current.map { v throws(PatchError) in try ledger.patch(v) }
                    }
                    _ = try? swap(to: previous ?? nil)
                    next.discardFile(of: version)
                    throw error
                }
                return newEpoch
            } catch let error where error.code == .threw {
                try state.withLock { () throws(PatchError) in
                    var next = ledger
                    try next.verified(patch)
                    next.rolledBack(version, reason: error.message, to: ledger.current)
                    try next.save()
                    ledger = next
                }
                // It ran (its modules started loading) and was rolled back: both count.
                server?.record(.applied, version: version)
                server?.record(.rolledBack, version: version, reason: error.message)
                report("patch \(version) rolled back: \(error.message)")
                throw error
            }
        }
    }

    /// `patch.ready`: confirms the patch in effect. Returns it, or nil when the shipped code runs.
    @discardableResult
    public func confirm() throws(PatchError) -> PatchRecord? {
        try confirm(state.withLock { ledger.current ?? 0 })
    }

    /// The patch the JS thread runs now (0: the shipped code). Read on the JS thread, it is the
    /// code that is making the call: `patch.ready` names it, so that a confirmation can only
    /// confirm the patch that was running when `ready` was called (never one swapped in while the
    /// call was on its way, the failure of Capgo's issue 907).
    public var runningVersion: Int { state.withLock { running } }

    /// Confirms `version` (0: the shipped code, nothing to confirm) if it is the patch in effect
    /// and not yet confirmed; a patch the JS thread has swapped to and the ledger not yet recorded
    /// is confirmed as it is recorded. Returns the record of the patch in effect.
    @discardableResult
    public func confirm(_ version: Int) throws(PatchError) -> PatchRecord? {
        try state.withLock { () throws(PatchError) -> PatchRecord? in
            if version != 0, ledger.current == version, ledger.record(version)?.state == .applied {
                var next = ledger
                next.confirmed(version)
                try next.save()
                ledger = next
                server?.record(.confirmed, version: version)
            } else if version != 0, ledger.current != version, running == version {
                confirmOnRecord = version
            }
            return ledger.current.flatMap { ledger.record($0) }
        }
    }

    /// Rolls the patch in effect back to the one before it (the last confirmed one kept, or the
    /// shipped code), recording `reason`. Returns the version now in effect.
    @discardableResult
    public func rollback(reason: String) throws(PatchError) -> Int? {
        try serial.withLock { () throws(PatchError) -> Int? in
            guard let version = state.withLock({ ledger.current }) else {
                throw PatchError(.nothing, "no patch to roll back: the app runs its shipped code")
            }
            let target = state.withLock { ledger.fallback(below: version) }
            let previous = try target.map { v throws(PatchError) in try state.withLock { () throws(PatchError) in try ledger.patch(v) } }
            do throws(PatchError) {
                try swap(to: previous)
            } catch {
                // The fallback failed to load as well: the shipped code is the floor.
                try swap(to: nil)
                return try recordRollback(version, reason: reason + "; patch \(target ?? 0) failed to load again (\(error.message)), back to the shipped code", to: nil)
            }
            return try recordRollback(version, reason: reason, to: target)
        }
    }

    private func recordRollback(_ version: Int, reason: String, to target: Int?) throws(PatchError) -> Int? {
        try state.withLock { () throws(PatchError) in
            var next = ledger
            next.rolledBack(version, reason: reason, to: target)
            try next.save()
            ledger = next
        }
        server?.record(.rolledBack, version: version, reason: reason)
        report("patch \(version) rolled back: \(reason)")
        return target
    }

    // MARK: - The patch server

    /// What a check tells the server: the patch in effect, the highest version seen, the versions
    /// rolled back (and revoked), and the sources of the patch in effect.
    func serverCheckState() -> (current: Int?, highest: Int, rolledBack: [Int], sources: [String: String]) {
        let ledger: PatchLedger = state.withLock { self.ledger }
        let rolledBack = Set(ledger.records.filter { (record: PatchRecord) in record.state == .rolledBack }.map { $0.patchVersion })
            .union(ledger.revoked.keys).sorted()
        let sources = ledger.current.flatMap { try? ledger.patch($0).sources } ?? [:]
        return (ledger.current, ledger.highestVersion, rolledBack, sources)
    }

    /// A verified revocation of `version`: recorded in the ledger so that it never applies again;
    /// if it runs, rolled back at once to the newest confirmed patch kept that is not revoked, or
    /// to the shipped code. Returns false when it was revoked before (a replay changes nothing).
    @discardableResult
    public func revoke(_ version: Int, reason: String) throws(PatchError) -> Bool {
        try serial.withLock { () throws(PatchError) -> Bool in
            let (known, current, record) = state.withLock { (ledger.revoked[version] != nil, ledger.current, ledger.record(version)) }
            guard !known else { return false }
            var target: Int?
            if current == version {
                target = state.withLock { ledger.fallback(below: version) }
                do throws(PatchError) {
                    let previous = try target.map { v throws(PatchError) in try state.withLock { () throws(PatchError) in try ledger.patch(v) } }
                    try swap(to: previous)
                } catch {
                    try swap(to: nil)
                    target = nil
                }
            }
            try state.withLock { () throws(PatchError) in
                var next = ledger
                next.revoke(version, reason: reason, to: target)
                try next.save()
                ledger = next
            }
            if let record, record.state == .applied || record.state == .confirmed {
                server?.record(.rolledBack, version: version, reason: "revoked by the publisher: \(reason)")
            }
            if current == version { report("patch \(version) rolled back: revoked by the publisher: \(reason)") }
            return true
        }
    }

    // MARK: - Drop folder

    /// Watches `<data dir>/patches/` for patch files, polling every `intervalMs`.
    public func watchDropFolder(intervalMs: Int = 100) {
        let folder = PatchDropFolder(directory: dataDirectory + "/" + Self.dropFolderName, intervalMs: intervalMs, loader: self)
        state.withLock { watcher = folder }
        folder.start()
    }

    public func stop() {
        server?.stop()
        let folder = state.withLock { () -> PatchDropFolder? in
            defer { watcher = nil }
            return watcher
        }
        folder?.stop()
    }

    // MARK: - The swap

    /// Makes `patch` (nil: none) the module registry's patch, as one task on the JS thread.
    @discardableResult
    private func swap(to patch: SignedPatch?) throws(PatchError) -> Int {
        let version = patch?.manifest.patchVersion ?? 0
        let changes: JSONValue = .array((patch?.manifest.modules ?? [:]).keys.sorted().map { name in
            ["filename": .string(trust.appDirectory + "/" + name), "mode": .string(patch!.manifest.modules[name]!.mode.rawValue),
             "source": .string(patch!.sources[name]!)]
        })
        let result: Result<(Int, UInt64), PatchError>
        do {
            result = try engine.performAndWait { [self] context in
                let started = MonotonicClock.now()
                let modules = context.get(context.global, "__hybridModules")
                guard let registry = context.object(modules), let setPatch = context.object(context.get(registry, "setPatch")) else {
                    return .failure(PatchError(.storage, "internal: the module registry is not installed"))
                }
                do throws(ScriptError) {
                    let epoch = try context.call(setPatch, this: registry, [context.number(Double(version)), context.jsValue(from: changes), faultHook ?? context.undefined])
                    state.withLock { running = version }
                    return .success((Int(context.numberValue(epoch)), MonotonicClock.now() - started))
                } catch {
                    if error.name == "PatchRefusal" { return .failure(PatchError(.notAccepted, "patch \(version): \(error.message)")) }
                    return .failure(PatchError(.threw, "patch \(version): a module threw while loading: \(error.summary)"))
                }
            }
        } catch {
            throw PatchError(.storage, "patch \(version): the app has stopped")
        }
        let (newEpoch, pause) = try result.get()
        state.withLock {
            epoch = newEpoch
            timings.pause = pause
        }
        return newEpoch
    }

    private func installFaultHook() throws(PatchError) {
        do {
            try engine.performAndWait { [self] context in
                let hook = context.makeFunction { [weak self] args in
                    let version = Int(args.context.numberValue(args[0]))
                    let function = "\(args.context.stringify(args[1])).\(args.context.stringify(args[2]))"
                    // Where it threw, through the module's source map when it has one.
                    let message = args.context.scriptError(from: args[3]).summary
                    self?.fault(version: version, function: function, message: message)
                    return nil
                }
                context.protect(hook)
                faultHook = hook
            }
        } catch {
            throw PatchError(.storage, "internal: the engine has stopped")
        }
    }

    /// An amended function threw (on the JS thread): past the limit, an unconfirmed patch is
    /// rolled back, off the JS thread.
    private func fault(version: Int, function: String, message: String) {
        let rollBack = state.withLock { () -> Bool in
            guard ledger.current == version, ledger.record(version)?.state == .applied else { return false }
            faults[version, default: 0] += 1
            return faults[version] == faultLimit
        }
        guard rollBack else { return }
        let file = function.hasPrefix(trust.appDirectory + "/") ? String(function.dropFirst(trust.appDirectory.count + 1)) : function
        let reason = "\(file) threw \(faultLimit) times before the patch was confirmed (last: \(message))"
        Task.detached { [self] in
            do {
                guard state.withLock({ ledger.current }) == version else { return }
                try rollback(reason: reason)
            } catch {
                report("patch \(version): rollback failed: \(error)")
            }
        }
    }

    // MARK: - Start-up

    private func startUp() throws(PatchError) {
        if let reason = ledger.unverified {
            replaceUnverifiedLedger(reason)
            return
        }
        guard var version = ledger.current, let record = ledger.record(version) else { return }
        if record.state == .applied && record.launched {
            let target = ledger.fallback(below: version)
            var next = ledger
            next.rolledBack(version, reason: "not confirmed (patch.ready) before the app restarted", to: target)
            try next.save()
            ledger = next
            server?.record(.rolledBack, version: version, reason: "not confirmed (patch.ready) before the app restarted")
            report("patch \(version) rolled back: not confirmed (patch.ready) before the app restarted")
            guard let target else { return }
            version = target
        }
        let patch: SignedPatch
        do throws(PatchError) {
            patch = try ledger.patch(version)
            // The kept file is checked again: the data dir is not trusted more than a download.
            try PatchVerifier.verify(patch, trust: trust, highestVersion: 0, checkVersion: false)
            try swap(to: patch)
        } catch {
            var next = ledger
            next.rolledBack(version, reason: "failed to load at start-up: \(error.message)", to: nil)
            try next.save()
            ledger = next
            server?.record(.rolledBack, version: version, reason: "failed to load at start-up: \(error.message)")
            report("patch \(version) rolled back: failed to load at start-up: \(error.message)")
            return
        }
        var next = ledger
        next.launched(version)
        try next.save()
        ledger = next
    }

    /// A ledger the host did not write: the app starts on its shipped code, and the ledger is
    /// replaced by the host's own, as ``PatchLedger/load(dataDirectory:)`` read it (each patch it
    /// named rolled back, the highest version kept), without the kept patch files, which nothing
    /// vouches for now. Reported once: the next start finds the host's ledger. A replacement that
    /// cannot be written (a full disk) leaves the app as safe for this run, and the next start
    /// does the same again.
    private func replaceUnverifiedLedger(_ reason: String) {
        var next = ledger
        next.unverified = nil
        for name in FileSystem.entries(of: next.directory) where name.hasSuffix(".json") && name != "ledger.json" {
            FileSystem.remove(next.directory + "/" + name)
        }
        report("\(reason): the app starts on its shipped code, the \(ledger.records.count) patch(es) it names are recorded as rolled back, only a patch above version \(ledger.highestVersion) applies, and the host's own ledger replaces it in \(ledger.directory)")
        do throws(PatchError) {
            try next.save()
            ledger = next
        } catch {
            report("\(ledger.directory)/ledger.json: cannot be replaced by the host's own: \(error.message)")
        }
    }
}
