import Foundation
import Synchronization
import SystemIO

/// `hybrid test --watch`: runs the test files, then, at each change, runs again the files the
/// change touches: a test file that changed or is new, and the test files whose last run loaded a
/// changed module (their module graph, ``TestRunner/Totals/modules``). Each rerun prints its TAP
/// and summary as a run does; one line on stderr says what it reruns and why. Runs until ``stop()``.
///
/// ```swift
/// let watcher = try TestWatcher(paths: ["tests"], runner: TestRunner())
/// watcher.run()   // until stop()
/// ```
///
/// It watches the folders of the given paths and of every module the tests loaded (each a
/// ``FileTreeWatcher``, as `hybrid run --watch` does), so a module outside the test folder counts.
// @unchecked: `batches` is a Mutex and `stopped` atomic; `runner`, `files`, `graph`, `broken` and `watchers` are touched only by `init` and then the thread in `run()`.
public final class TestWatcher: @unchecked Sendable {
    public let paths: [String]
    private var runner: TestRunner
    private let report: @Sendable (String) -> Void

    private let batches = Mutex<[FileTreeWatcher.Batch]>([])
    private let arrived = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    // The thread in `run()` only.
    /// Test files as ``TestRunner/collect(_:)`` gives them, by real path.
    private var files: [String: String] = [:]
    /// What each test file (by real path) loaded in its last run, itself included.
    private var graph: [String: Set<String>] = [:]
    /// Test files (by real path) whose last run broke before its imports were known.
    private var broken: Set<String> = []
    private var watchers: [String: FileTreeWatcher] = [:]

    /// Checks that `paths` hold test files; the first run is in ``run()``.
    public init(paths: [String], runner: TestRunner, report: @escaping @Sendable (String) -> Void = { StandardStreams.write($0 + "\n", to: 2) })
        throws(AppLoadError) {
        self.paths = paths
        self.runner = runner
        self.runner.recordsModules = true
        self.report = report
        files = try Self.realPaths(TestRunner.collect(paths))
        if files.isEmpty {
            throw AppLoadError("hybrid test: no *.test.js or *.test.ts files under \(paths.joined(separator: ", "))")
        }
    }

    /// Runs every test file, then reruns at each change until ``stop()``.
    public func run() {
        // The given folders are watched from the start: a save during the first run reruns after it.
        watch()
        rerun(files.keys.sorted(), reason: nil)
        while !stopped.load(ordering: .acquiring) {
            arrived.wait()
            // Changes that came during a run are taken together: one rerun for them all.
            let changed = Set(batches.withLock { pending in
                defer { pending.removeAll() }
                return pending.flatMap(\.paths)
            })
            if stopped.load(ordering: .acquiring) { break }
            if changed.isEmpty { continue }
            handle(changed)
        }
        for watcher in watchers.values { watcher.stop() }
    }

    /// Ends ``run()`` once the run in progress, if any, has finished. From any thread.
    public func stop() {
        stopped.store(true, ordering: .releasing)
        arrived.signal()
    }

    // MARK: - Changes

    private func handle(_ changed: Set<String>) {
        let before = files
        if let found = try? Self.realPaths(TestRunner.collect(paths)) { files = found }
        for gone in before.keys where files[gone] == nil {
            graph[gone] = nil
            broken.remove(gone)
        }
        let lost = changed.contains { watchers[$0] != nil }
        let settings = changed.filter { ["app.json", "package.json", "tsconfig.json"].contains(Self.fileName($0)) }
        var due: [String] = []
        var cause: [String] = []
        for file in files.keys.sorted() {
            // A new test file is among the changed files too (written, or in a folder moved in).
            if lost || !settings.isEmpty || changed.contains(file) {
                due.append(file)
            } else if let touched = graph[file]?.intersection(changed), !touched.isEmpty {
                due.append(file)
                cause += touched
            } else if broken.contains(file), let module = changed.first(where: AppWatcher.isModuleFile) {
                // It broke last time, before its imports were known: any module may be the fix.
                due.append(file)
                cause.append(module)
            }
        }
        guard !due.isEmpty else { return }
        let reason: String
        if lost {
            reason = "file events were lost"
        } else if let setting = settings.first {
            reason = "\(Self.fileName(setting)) changed"
        } else {
            let named = Set(cause + changed.filter { files[$0] != nil }).sorted().map(Self.fileName)
            reason = "\(named.joined(separator: ", ")) changed"
        }
        rerun(due, reason: reason)
    }

    /// Runs `due` (real paths), records what they loaded, and watches any folder new among them.
    private func rerun(_ due: [String], reason: String?) {
        let given = due.compactMap { files[$0] }
        if let reason {
            report("[watch] rerunning \(given.count) file\(given.count == 1 ? "" : "s"): \(given.joined(separator: ", ")) (\(reason))")
        }
        let totals = runner.run(files: given)
        for (real, path) in files where given.contains(path) {
            let modules = totals.modules[path] ?? []
            if modules.isEmpty {
                graph[real] = nil
                broken.insert(real)
            } else {
                graph[real] = Set(modules + [real])
                broken.remove(real)
            }
        }
        watch()
        report("[watch] waiting for changes")
    }

    /// Adds a watcher for each folder not yet watched: those of the given paths and of the loaded
    /// modules (outside node_modules, which nobody edits).
    private func watch() {
        var folders = Set<String>()
        for path in paths {
            guard let real = FileSystem.realPath(path) else { continue }
            folders.insert(FileSystem.kind(of: real) == .directory ? real : FileSystem.directory(of: real))
        }
        for modules in graph.values {
            for module in modules where !module.contains("/node_modules/") { folders.insert(FileSystem.directory(of: module)) }
        }
        for folder in Self.outermost(folders) where !watchers.keys.contains(where: { Self.covers($0, folder) }) {
            // A new folder above watched ones replaces them.
            for (root, inner) in watchers where Self.covers(folder, root) {
                inner.stop()
                watchers[root] = nil
            }
            do {
                let watcher = try FileTreeWatcher(root: folder) { [weak self] batch in
                    guard let self else { return }
                    batches.withLock { $0.append(batch) }
                    arrived.signal()
                }
                watcher.start()
                watchers[folder] = watcher
            } catch {
                report("[watch] cannot watch \(folder): \(error.reason)")
            }
        }
    }

    // MARK: - Paths

    /// The files by their real path (what the module graph and the watchers name).
    private static func realPaths(_ files: [String]) -> [String: String] {
        var byReal: [String: String] = [:]
        for file in files { byReal[FileSystem.realPath(file) ?? FileSystem.absolute(file)] = file }
        return byReal
    }

    /// The folders of `folders` that no other one contains.
    static func outermost(_ folders: Set<String>) -> [String] {
        folders.sorted().filter { folder in !folders.contains { $0 != folder && covers($0, folder) } }
    }

    /// `outer` is `inner` or a folder above it.
    static func covers(_ outer: String, _ inner: String) -> Bool {
        inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
