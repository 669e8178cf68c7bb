import Engine
import Foundation
import Patches
import Synchronization
import SystemIO

/// `hybrid run --watch`: runs an app and, at each change to its files, swaps the changed modules
/// into the running app (``AppSession/reload(_:)``, the module registry's replace path) or, when
/// they cannot be swapped, restarts the app in this process with the same data dir. One line per
/// reload on stderr says which; the app's stdout is left to the app.
///
/// ```swift
/// let watcher = try AppWatcher(path: "app", options: AppRunOptions(dataDirectory: "dev-data"))
/// watcher.run()   // until stop()
/// ```
///
/// Swaps are unsigned, so watch mode keeps away from a signed app's production data
/// (``refusal(manifest:options:)``) and records nothing in the patch ledger.
// @unchecked: `events` is a Mutex; `watcher` is set in `init` only; `session`, `generation`, `finished`, `lastLoaded` are touched only by the thread in `run()`.
public final class AppWatcher: @unchecked Sendable {
    public let path: String
    public let manifest: AppManifest
    private let options: AppRunOptions
    private let report: @Sendable (String) -> Void
    /// The app is a folder with `app.json` (a change to it restarts the app).
    private let manifestFile: String?
    /// Absolute; changes under it are ignored (a data dir kept inside the app's folder).
    private let dataDirectory: String
    private var watcher: FileTreeWatcher!

    /// What the watch thread waits for.
    private enum Event {
        case changed(FileTreeWatcher.Batch)
        /// Run `generation` ended on its own.
        case ended(generation: Int, EngineOutcome)
        case stop
    }
    private let events = Mutex<[Event]>([])
    private let arrived = DispatchSemaphore(value: 0)

    // The thread in `run()` only.
    private var session: AppSession?
    private var generation = 0
    /// Set while a run is going: the semaphore its thread signals once it has let go of the session.
    private var finished: DispatchSemaphore?
    /// The modules the last run had loaded, for changes that arrive after it ended.
    private var lastLoaded: Set<String> = []

    /// Checks that the app may be watched (``refusal(manifest:options:)``) and starts watching its
    /// folder. The app starts in ``run()``.
    public init(path: String, options: AppRunOptions, report: @escaping @Sendable (String) -> Void = { StandardStreams.write($0 + "\n", to: 2) })
        throws(AppLoadError) {
        self.path = path
        let manifest = try AppManifest.load(path: path, grantFlags: options.grantFlags)
        if let refusal = Self.refusal(manifest: manifest, options: options) { throw AppLoadError(refusal) }
        var options = options
        options.hotReload = true
        self.options = options
        self.manifest = manifest
        self.report = report
        manifestFile = FileSystem.kind(of: FileSystem.absolute(path)) == .directory ? manifest.directory + "/app.json" : nil
        dataDirectory = options.dataDirectory.map(FileSystem.absolute) ?? AppSession.defaultDataDirectory(app: manifest.name)
        do {
            watcher = try FileTreeWatcher(root: manifest.directory) { [weak self] batch in self?.post(.changed(batch)) }
        } catch {
            throw AppLoadError("--watch: cannot watch \(manifest.directory): \(error.reason)")
        }
    }

    /// Why `--watch` must not run this app with these options, or nil. Watch mode swaps unsigned
    /// code into the running app, so it never touches data a signed app runs on:
    /// - an app whose `app.json` lists `patchKeys` needs `--data-dir`, a folder other than its
    ///   default one (where the installed app's data lives);
    /// - a data dir whose patch ledger records any signed patch is refused, whoever's it is, and so
    ///   is one whose ledger the host did not write (it cannot tell what that one holds).
    public static func refusal(manifest: AppManifest, options: AppRunOptions) -> String? {
        let fallback = AppSession.defaultDataDirectory(app: manifest.name)
        let dataDirectory = options.dataDirectory.map(FileSystem.absolute) ?? fallback
        let remedy = "--watch swaps edited modules in unsigned, so it runs only on a data dir of its own: add --data-dir DIR (a folder for development)"
        if !manifest.patchKeys.isEmpty && dataDirectory == fallback {
            return "--watch: app.json lists patchKeys (a signed app), and \(dataDirectory) is its data dir; \(remedy)"
        }
        let ledger: PatchLedger
        do {
            ledger = try PatchLedger.load(dataDirectory: dataDirectory)
        } catch {
            return "--watch: \(PatchLedger.directory(dataDirectory: dataDirectory)): \(error.message); \(remedy)"
        }
        if ledger.records.isEmpty, let reason = ledger.unverified {
            return "--watch: \(dataDirectory) may hold signed patches (\(reason)); \(remedy)"
        }
        if !ledger.records.isEmpty {
            let effect = ledger.current.map { "patch \($0) in effect" } ?? "the shipped code in effect"
            return "--watch: \(dataDirectory) holds signed patches (\(PatchLedger.directory(dataDirectory: dataDirectory))/ledger.json: \(ledger.records.count) recorded, \(effect)); \(remedy)"
        }
        return nil
    }

    /// Runs the app, then swaps or restarts at each change, until ``stop()``. An app that ends on
    /// its own (or fails) is started again at the next change to its files, as `node --watch` does.
    public func run() {
        watcher.start()
        start()
        while true {
            arrived.wait()
            guard let event = events.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            switch event {
            case .stop:
                end()
                watcher.stop()
                return
            case .ended(let ended, let outcome) where ended == generation && session != nil:
                end()
                if case .failed(let error) = outcome {
                    report(AppSession.report(error, timeLimit: options.timeLimitSeconds))
                    report("[watch] app failed; waiting for a change to restart it")
                } else {
                    report("[watch] app exited; waiting for a change to restart it")
                }
            case .ended:
                continue
            case .changed(let batch):
                handle(batch)
            }
        }
    }

    /// Ends ``run()``: the app is shut down and the folder no longer watched. From any thread.
    public func stop() { post(.stop) }

    private func post(_ event: Event) {
        events.withLock { $0.append(event) }
        arrived.signal()
    }

    // MARK: - Changes

    private func handle(_ batch: FileTreeWatcher.Batch) {
        // A data dir inside the app's folder is the app's writing, not the developer's.
        let paths = batch.paths.filter { !$0.hasPrefix(dataDirectory + "/") }
        guard !paths.isEmpty else { return }
        if paths.contains(manifest.directory) { return restart("file events were lost") }
        if let manifestFile, paths.contains(manifestFile) { return restart("app.json changed") }
        guard let session else {
            // Not running: any module of the last run, or any module file at all (one that failed
            // to load is not in the cache), starts it again.
            if let file = paths.first(where: { lastLoaded.contains($0) || Self.isModuleFile($0) }) { restart("\(name(file)) changed") }
            return
        }
        let started = MonotonicClock.now()
        switch session.reload(paths) {
        case .unchanged:
            return
        case .swapped(let files):
            let ms = Double(MonotonicClock.now() - started) / 1_000_000
            report("[watch] swapped \(files.map(name).joined(separator: ", ")) (\(ms < 10 ? String(format1: ms) : String(Int(ms.rounded()))) ms)")
        case .restart(let file, let reason):
            restart("\(name(file)) \(reason)")
        case .invalid(let file, let error):
            report("[watch] swap failed, kept running: \(describe(error, file: file)); the app runs on its last good code")
        case .threw(let error):
            restart(describe(error, file: nil), failed: true)
        case .stopped:
            // The run ended between the change and the swap: its end is on its way.
            return
        }
    }

    private func restart(_ reason: String, failed: Bool = false) {
        end()
        report(failed ? "[watch] swap failed, restarted: \(reason)" : "[watch] restarted: \(reason)")
        start()
    }

    // MARK: - Runs

    /// Starts a new session on a thread of its own; a failure to load, or an `app.json` edited into
    /// one watch mode refuses (patchKeys added), is reported and waited out.
    private func start() {
        generation += 1
        let made: AppSession
        do throws(AppLoadError) {
            if let refusal = Self.refusal(manifest: try AppManifest.load(path: path, grantFlags: options.grantFlags), options: options) {
                throw AppLoadError(refusal)
            }
            made = try AppSession(path: path, options: options)
        } catch {
            report(error.message)
            report("[watch] waiting for a change to restart it")
            return
        }
        session = made
        let done = DispatchSemaphore(value: 0)
        finished = done
        let run = generation
        let holder = SessionHolder(made)
        DetachedThread.start { [self] in
            let outcome = holder.session?.run() ?? .idle
            holder.session = nil
            post(.ended(generation: run, outcome))
            done.signal()
        }
    }

    /// Shuts the current session down (pending calls rejected with E_SHUTDOWN) and waits until
    /// its thread has let go of it, so that its services are closed before another starts.
    private func end() {
        guard let current = session else { return }
        lastLoaded = Set(current.loadedModules())
        session = nil
        current.shutdown()
        finished?.wait()
        finished = nil
    }

    /// The run thread's reference to its session, dropped as soon as the run returns.
    private final class SessionHolder: Sendable {
        private let state: Locked<AppSession?>
        init(_ session: AppSession) { state = Locked(session) }

        var session: AppSession? {
            get { state.value }
            set { state.value = newValue }
        }
    }

    // MARK: - Lines

    static func isModuleFile(_ path: String) -> Bool {
        (AppManifest.moduleExtensions + [".json"]).contains { path.hasSuffix($0) }
    }

    /// `path` relative to the app's folder.
    private func name(_ path: String) -> String {
        path.hasPrefix(manifest.directory + "/") ? String(path.dropFirst(manifest.directory.count + 1)) : path
    }

    /// `Name: message (file:line:column)`, on one line.
    private func describe(_ error: ScriptError, file: String?) -> String {
        let message = error.message.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        var text = message.isEmpty ? error.name : "\(error.name): \(message)"
        if let url = error.sourceURL ?? file {
            text += " (" + name(url) + (error.line.map { ":\($0)" + (error.column.map { ":\($0)" } ?? "") } ?? "") + ")"
        }
        return text
    }
}

private extension String {
    /// One decimal: "4.2".
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
