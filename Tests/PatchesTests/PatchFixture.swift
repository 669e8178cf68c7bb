import Engine
import Foundation
import HostTesting
import HybridHost
import JSON
import PatchProtocol
import Patches
import SystemIO

/// An app folder with a patch key, its data dir, and a running session, for one test. Removed
/// (and the session shut down) by ``withPatchApp(_:_:)``.
final class PatchFixture: @unchecked Sendable {
    let root: String
    let appDirectory: String
    let dataDirectory: String
    let key = PatchSigner.generateKey()
    let stderr = LockedText()
    private(set) var session: AppSession?

    /// `dataDirectory`: where the app's data lives, when not in the fixture's own folder (a small disk).
    init(files: [String: String], version: String = "1.0.0", extraKeys: [String] = [], grants: [String] = ["patch", "device"],
         dataDirectory: String? = nil, patches: String? = nil, root: String? = nil) throws {
        self.root = root ?? FileManager.default.temporaryDirectory.appendingPathComponent("patch-tests-\(UUID().uuidString)").path
        appDirectory = self.root + "/app"
        self.dataDirectory = dataDirectory ?? self.root + "/data"
        var files = files
        let keys = ([key.publicKey] + extraKeys).map { "\"\($0)\"" }.joined(separator: ", ")
        let granted = grants.map { "\"\($0)\"" }.joined(separator: ", ")
        files["app.json"] = #"{"name": "patched", "version": "\#(version)", "main": "main.js", "grants": [\#(granted)], "patchKeys": [\#(keys)]\#(patches.map { ", \"patches\": " + $0 } ?? "")}"#
        for (path, text) in files {
            let url = URL(fileURLWithPath: appDirectory + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    var trust: PatchTrust {
        PatchTrust(app: "patched", appVersion: "1.0.0", keys: [key.publicKey], appDirectory: appDirectory)
    }

    /// Starts a session and runs main.js (not waiting for idle: the test drives the loop).
    @discardableResult
    func start() async throws -> AppSession {
        var options = AppRunOptions(dataDirectory: dataDirectory)
        // This process runs every test: its resident memory is theirs too (the full suite's peaks
        // near 1.4 GB), and a patched app run for a minute beside them would pass its 1 GiB quota.
        options.guardsMemory = false
        let stderr = self.stderr
        options.output = { fd, text in if fd == 2 { stderr.append(text) } }
        let session = try AppSession(path: appDirectory, options: options)
        self.session = session
        let main = appDirectory + "/main.js"
        try await session.engine.perform { context in _ = try context.runMain(main) }
        return session
    }

    /// Shuts the session down, as the end of a run does.
    func stop() {
        session?.shutdown()
        session = nil
    }

    /// Evaluates `source` on the JS thread and converts its value.
    func js(_ source: String) async throws -> JSONValue {
        guard let session else { throw FixtureError("no session") }
        return try await session.engine.perform { context in try context.jsonValue(from: try context.evaluate(source, url: "/test.js")) }
    }

    /// Awaits a promise `source` evaluates to, by polling the loop.
    func jsAwait(_ source: String, timeout: Double = 10) async throws -> JSONValue {
        let id = UUID().uuidString
        _ = try await js("globalThis['\(id)'] = {done: false}; Promise.resolve(\(source)).then(v => { globalThis['\(id)'] = {done: true, value: v}; }, e => { globalThis['\(id)'] = {done: true, error: {code: e.code ?? null, message: String(e.message)}}; }); 0")
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let state = try await js("globalThis['\(id)']")
            if state["done"]?.boolValue == true {
                if let error = state["error"] { throw FixtureError("rejected: \(error)") }
                return state["value"] ?? .null
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw FixtureError("timed out awaiting \(source)")
    }

    /// A signed patch of this app.
    func patch(_ version: Int, _ modules: [String: (PatchManifest.Mode, String)], base: String = "1.0.0",
               expires: String? = nil, privateKey: String? = nil) throws -> SignedPatch {
        var manifestModules: [String: PatchManifest.Module] = [:]
        var sources: [String: String] = [:]
        for (name, (mode, source)) in modules {
            manifestModules[name] = PatchManifest.Module(mode: mode, sha256: SignedPatch.sha256(source))
            sources[name] = source
        }
        let manifest = PatchManifest(app: "patched", patchVersion: version, baseVersion: base, expires: expires, modules: manifestModules)
        return try PatchSigner.sign(manifest, sources: sources, privateKey: privateKey ?? key.privateKey)
    }

    /// Applies off the test's task: `apply` blocks while the JS thread swaps.
    func apply(_ patch: SignedPatch) async throws(PatchError) {
        guard let loader = session?.patches else { throw PatchError(.nothing, "no session") }
        let result: Result<Int, PatchError> = await onThread {
            do throws(PatchError) { return .success(try loader.apply(patch)) } catch { return .failure(error) }
        }
        _ = try result.get()
    }

    func rollback(reason: String) async throws(PatchError) {
        guard let loader = session?.patches else { throw PatchError(.nothing, "no session") }
        let result: Result<Int?, PatchError> = await onThread {
            do throws(PatchError) { return .success(try loader.rollback(reason: reason)) } catch { return .failure(error) }
        }
        _ = try result.get()
    }

    func ledgerText() -> String {
        (try? String(contentsOfFile: dataDirectory + "/patch-ledger/ledger.json", encoding: .utf8)) ?? "<none>"
    }

    func ledger() throws -> PatchLedger { try PatchLedger.load(dataDirectory: dataDirectory) }

    func remove() {
        stop()
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// Runs `body` with a fresh app, its session shut down and its folder removed afterwards.
func withPatchApp<T>(_ files: [String: String], _ body: (PatchFixture) async throws -> T) async throws -> T {
    let fixture = try PatchFixture(files: files)
    defer { fixture.remove() }
    return try await body(fixture)
}

/// Runs blocking work on a thread of its own, off Swift's cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

final class LockedText: Sendable {
    private let text = Locked("")
    func append(_ more: String) { text.withLock { $0 += more } }
    var value: String { text.value }
}

/// The demo-like app most tests patch: a library captured by main before any patch.
let libraryApp: [String: String] = [
    "lib.js": """
        exports.greet = (name) => "hello " + name;
        exports.shout = (name) => exports.greet(name).toUpperCase();
        """,
    "counter.js": """
        let count = module.hot.data.count ?? 0;
        exports.increment = () => ++count;
        exports.read = () => count;
        exports.flavour = "shipped";
        module.hot.accept();
        module.hot.dispose((data) => { data.count = count; });
        """,
    "stubborn.js": """
        exports.value = () => "shipped";
        """,
    "main.js": """
        const lib = require("./lib");
        const stubborn = require("./stubborn");
        globalThis.app = {
          lib, stubborn,
          greet: (name) => lib.greet(name),
          counter: () => require("./counter"),
        };
        """,
]
