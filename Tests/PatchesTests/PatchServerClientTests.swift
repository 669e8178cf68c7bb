import Foundation
import HybridHost
import JSON
import PatchProtocol
import Patches
import SystemIO
import Testing

/// The loader's side of the patch server, through a running app and the bridge, against
/// ``PatchServerStub`` (the protocol's device endpoints on 127.0.0.1).
@Suite("patch server client: check {}, reports, revocations, backoff")
struct PatchServerClientTests {
    static let main = "globalThis.greet = require('./greet');\nglobalThis.other = require('./other');\n"
    static let greet = "module.hot.accept();\nexports.hello = () => 'hello v0';\n"
    static let other = "exports.name = () => 'other';\n"

    /// An app whose app.json names `stub` as its patch server, started.
    func withServer(checkEvery: Double = 3600, grants: [String] = ["patch", "device", "network:127.0.0.1"],
                    _ body: (PatchFixture, PatchServerStub) async throws -> Void) async throws {
        let stub = PatchServerStub()
        try await stub.start()
        let patches = #"{"server": "\#(stub.base)", "channel": "beta", "checkEvery": \#(checkEvery)}"#
        let fixture = try PatchFixture(files: ["main.js": Self.main, "greet.js": Self.greet, "other.js": Self.other], grants: grants, patches: patches)
        defer { fixture.remove() }
        try await fixture.start()
        // The check at start: wait for it, so that a test's own check does not race it.
        try await poll("the check at start") { stub.checks.count >= 1 && fixture.session?.patches.server?.isChecking == false }
        try await body(fixture, stub)
        fixture.stop()
        await stub.stop()
    }

    func check(_ fixture: PatchFixture) async throws -> JSONValue {
        try await fixture.jsAwait("Hybrid.call('patch', 'check', {}).then(v => v, e => ({error: e.code, reason: e.details && e.details.reason, message: e.message}))")
    }

    @Test("check {} sends the protocol's request and applies the offer, rebuilding unchanged modules")
    func checksTheServer() async throws {
        try await withServer { fixture, stub in
            let start = try #require(stub.checks.first)
            let deviceId = try String(contentsOfFile: fixture.dataDirectory + "/device-id", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(start["deviceId"] == .string(deviceId))
            #expect(start["baseVersion"] == "1.0.0")
            #expect(start["channel"] == "beta")
            #expect(start["patchVersion"] == .null)
            #expect(start["highestVersion"] == 0)
            #expect(start["modules"]?["greet.js"] == .string(SignedPatch.sha256(Self.greet)))
            #expect(start["modules"]?["main.js"] == .string(SignedPatch.sha256(Self.main)))
            // The device id is the device service's.
            let fromService = try await fixture.jsAwait("Hybrid.call('device', 'id')")
            #expect(fromService["id"] == .string(deviceId))

            let none = try await check(fixture)
            #expect(none["outcome"] == "upToDate")
            #expect(none["revocations"] == ["applied": [], "refused": []])

            // other.js is offered as it runs: it goes out as "unchanged" and is rebuilt here.
            stub.offer(try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'hello v1';\n"),
                                             "other.js": (.amend, Self.other)]))
            let applied = try await check(fixture)
            #expect(applied["outcome"] == "applied", "\(applied)")
            #expect(applied["patchVersion"] == 1)
            #expect(stub.lastOffer?["modules"]?["other.js"]?["unchanged"] == true)
            #expect(stub.lastOffer?["modules"]?["other.js"]?["source"] == nil)
            #expect(try await fixture.js("greet.hello()") == "hello v1")
            // The next check names what runs now.
            _ = try await check(fixture)
            #expect(stub.checks.last?["patchVersion"] == 1)
            #expect(stub.checks.last?["highestVersion"] == 1)
            #expect(stub.checks.last?["modules"]?["greet.js"] == .string(SignedPatch.sha256("exports.hello = () => 'hello v1';\n")))
        }
    }

    @Test("an offered module whose rebuilt source is not the signed one is refused and changes nothing")
    func unchangedMismatch() async throws {
        try await withServer { fixture, stub in
            // Signed over a source the device does not run, but the stub says "unchanged" for it
            // only when the hashes agree: so send a patch that names other.js with a different
            // sha256 and rely on the verifier, through a direct offer with a broken source.
            var patch = try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'hello v1';\n")])
            patch.sources["greet.js"] = "exports.hello = () => 'evil';\n"
            stub.offer(patch)
            let refused = try await check(fixture)
            #expect(refused["error"] == "E_FAILED")
            #expect(refused["reason"] == "bad_hash")
            #expect(try await fixture.js("greet.hello()") == "hello v0")
        }
    }

    @Test("reports: downloaded, applied and confirmed name their version, wait for a token, and are sent once")
    func reports() async throws {
        try await withServer { fixture, stub in
            stub.offer(try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'hello v1';\n")]))
            #expect(try await check(fixture)["outcome"] == "applied")
            _ = try await fixture.jsAwait("Hybrid.call('patch', 'ready')")
            // Nothing is sent without a device token: all three wait in the data dir.
            let queued = try String(contentsOfFile: fixture.dataDirectory + "/.patch-reports.json", encoding: .utf8)
            #expect(queued.contains("\"downloaded\"") && queued.contains("\"applied\"") && queued.contains("\"confirmed\""))
            #expect(stub.reports.isEmpty)

            let configured = try await fixture.jsAwait("Hybrid.call('patch', 'configure', {token: 'device-token-1'})")
            #expect(configured["pendingReports"] == 3)
            try await poll("three reports") { stub.reports.count >= 3 }
            #expect(stub.reports == [
                .init(patchVersion: 1, event: "downloaded", reason: nil, token: "device-token-1"),
                .init(patchVersion: 1, event: "applied", reason: nil, token: "device-token-1"),
                .init(patchVersion: 1, event: "confirmed", reason: nil, token: "device-token-1"),
            ])
            // A second ready confirms nothing new: no second report.
            _ = try await fixture.jsAwait("Hybrid.call('patch', 'ready')")
            try await poll("the queue drained") { fixture.session?.patches.server?.reports.pending.isEmpty == true }
            #expect(stub.reports.count == 3)

            // A rollback is reported with its reason.
            try await fixture.rollback(reason: "the cart total is wrong")
            try await poll("the rollback report") { stub.reports.count >= 4 }
            #expect(stub.reports.last == .init(patchVersion: 1, event: "rolledBack", reason: "the cart total is wrong", token: "device-token-1"))
        }
    }

    @Test("a token the server refuses keeps the reports queued until another is set")
    func refusedToken() async throws {
        try await withServer { fixture, stub in
            stub.accept(token: "good")
            stub.offer(try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'hello v1';\n")]))
            #expect(try await check(fixture)["outcome"] == "applied")
            _ = try await fixture.jsAwait("Hybrid.call('patch', 'configure', {token: 'bad'})")
            try await poll("the refusal reported") { fixture.stderr.value.contains("refused the device token") }
            #expect(fixture.session?.patches.server?.reports.pending.count == 2)
            _ = try await fixture.jsAwait("Hybrid.call('patch', 'configure', {token: 'good'})")
            try await poll("both reports") { stub.reports.count == 2 }
            #expect(stub.reports.map(\.token) == ["good", "good"])
        }
    }

    /// Capgo #907: the outgoing code's `ready` credited to the incoming patch.
    @Test("a ready issued by the outgoing code as a patch is swapped in cannot confirm the incoming patch")
    func readyAroundASwap() async throws {
        try await withServer { fixture, stub in
            let session = try #require(fixture.session)
            let loader = session.patches
            let patch = try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'hello v1';\n")])
            // The JS thread is busy in the outgoing code while the apply is posted: the swap waits
            // behind it. That code then calls ready, and only then does the swap run.
            let applying = Locked(false)
            async let busy: JSONValue = session.engine.perform { context in
                while !applying.value { usleep(1000) }
                // The apply has verified and compiled and is about to (or does) wait for this thread.
                usleep(200_000)
                return try context.jsonValue(from: try context.evaluate(
                    "globalThis.outgoingReady = Hybrid.call('patch', 'ready'); globalThis.outgoingReady.then(v => { globalThis.outgoingAnswer = v; }); greet.hello()",
                    url: "/outgoing.js"))
            }
            let applied = Task {
                applying.withLock { $0 = true }
                try await fixture.apply(patch)
            }
            #expect(try await busy == "hello v0")
            try await applied.value
            try await poll("the outgoing ready's answer") { (try? await fixture.js("globalThis.outgoingAnswer !== undefined")) == true }
            let answer = try await fixture.js("globalThis.outgoingAnswer")
            #expect(answer["patchVersion"] == .null, "the outgoing code's ready named \(answer)")
            #expect(loader.history.last { $0.patchVersion == 1 }?.state == .applied)
            #expect(try await fixture.js("greet.hello()") == "hello v1")
            // The incoming code's ready confirms it.
            let confirmed = try await fixture.jsAwait("Hybrid.call('patch', 'ready')")
            #expect(confirmed["patchVersion"] == 1)
            #expect(confirmed["state"] == "confirmed")
            #expect(loader.server?.reports.pending.filter { $0.event == .confirmed }.map(\.patchVersion) == [1])
        }
    }

    @Test("revocations: a valid one rolls the running patch back to the last confirmed one; forged and other-app ones change nothing")
    func revocations() async throws {
        try await withServer { fixture, stub in
            stub.offer(try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'hello v1';\n")]))
            #expect(try await check(fixture)["outcome"] == "applied")
            _ = try await fixture.jsAwait("Hybrid.call('patch', 'ready')")
            stub.offer(try fixture.patch(2, ["greet.js": (.amend, "exports.hello = () => 'hello v2';\n")]))
            #expect(try await check(fixture)["outcome"] == "applied")
            #expect(try await fixture.js("greet.hello()") == "hello v2")

            let stranger = PatchSigner.generateKey()
            // Forged: claims the app's key, signed by another.
            var forged = try PatchRevocation.sign(app: "patched", patchVersion: 2, reason: "forged", privateKey: stranger.privateKey)
            forged.key = fixture.key.publicKey
            stub.revoke(forged.jsonValue)
            stub.revoke(try PatchRevocation.sign(app: "another-app", patchVersion: 2, reason: "not yours", privateKey: fixture.key.privateKey).jsonValue)
            stub.revoke(try PatchRevocation.sign(app: "patched", patchVersion: 2, reason: "unknown key", privateKey: stranger.privateKey).jsonValue)
            let unmoved = try await check(fixture)
            #expect(unmoved["revocations"]?["applied"] == [])
            let reasons = unmoved["revocations"]?["refused"]?.arrayValue?.compactMap { $0["reason"]?.stringValue } ?? []
            #expect(reasons.count == 3)
            #expect(reasons.contains { $0.contains("signature") } && reasons.contains { $0.contains("another-app") } && reasons.contains { $0.contains("patch key") })
            #expect(try await fixture.js("greet.hello()") == "hello v2")
            #expect(unmoved["patchVersion"] == 2)

            // A valid one: patch 2 goes at once, back to confirmed patch 1.
            stub.revoke(try PatchRevocation.sign(app: "patched", patchVersion: 2, reason: "it double-charges", privateKey: fixture.key.privateKey).jsonValue)
            // And one of a version this device never saw: refused when offered later.
            stub.revoke(try PatchRevocation.sign(app: "patched", patchVersion: 3, reason: "never ship it", privateKey: fixture.key.privateKey).jsonValue)
            let revoked = try await check(fixture)
            #expect(revoked["revocations"]?["applied"] == [2, 3])
            #expect(revoked["patchVersion"] == 1)
            #expect(revoked["state"] == "confirmed")
            #expect(try await fixture.js("greet.hello()") == "hello v1")
            let history = try await fixture.jsAwait("Hybrid.call('patch', 'history')")
            let record2 = history["records"]?.arrayValue?.first { $0["patchVersion"] == 2 }
            #expect(record2?["state"] == "rolledBack")
            #expect(record2?["reason"] == "revoked by the publisher: it double-charges")
            #expect(try fixture.ledger().revoked == [2: "it double-charges", 3: "never ship it"])

            // Replayed: nothing changes, nothing is listed again.
            let replay = try await check(fixture)
            #expect(replay["revocations"]?["applied"] == [])
            #expect(replay["patchVersion"] == 1)

            // The revoked version that was never seen is refused when offered.
            stub.offer(try fixture.patch(3, ["greet.js": (.amend, "exports.hello = () => 'hello v3';\n")]))
            let refused = try await check(fixture)
            #expect(refused["reason"] == "revoked", "\(refused)")
            #expect(try await fixture.js("greet.hello()") == "hello v1")
            // The device tells the server what it rolled back and what was revoked.
            #expect(stub.checks.last?["rolledBack"] == [2, 3])
        }
    }

    @Test("the report queue survives a restart of the run; the unconfirmed patch's rollback is reported too")
    func queueSurvivesRestart() async throws {
        let stub = PatchServerStub()
        try await stub.start()
        defer { Task { await stub.stop() } }
        let patches = #"{"server": "\#(stub.base)", "checkEvery": 3600}"#
        let fixture = try PatchFixture(files: ["main.js": Self.main, "greet.js": Self.greet, "other.js": Self.other],
                                       grants: ["patch", "network:127.0.0.1"], patches: patches)
        defer { fixture.remove() }
        stub.offer(try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'hello v1';\n")]))
        try await fixture.start()
        // The check at start applies it; no token in this run.
        try await poll("patch 1 applied at start") { fixture.session?.patches.current.patchVersion == 1 }
        fixture.stop()
        stub.offer(nil)

        // The next run: patch 1 was never confirmed, so it is rolled back; every report waits.
        try await fixture.start()
        #expect(fixture.session?.patches.current.patchVersion == nil)
        #expect(stub.reports.isEmpty)
        _ = try await fixture.jsAwait("Hybrid.call('patch', 'configure', {token: 't'})")
        try await poll("the three reports") { stub.reports.count >= 3 }
        #expect(stub.reports.map(\.event) == ["downloaded", "applied", "rolledBack"])
        #expect(stub.reports.last?.reason == "not confirmed (patch.ready) before the app restarted")
        // Sent means answered and taken off the queue: a run stopped between the two sends that
        // report again (the server counts a repeat once).
        try await poll("the queue drained") { fixture.session?.patches.server?.reports.pending.isEmpty == true }
        fixture.stop()

        // A third run sends nothing again.
        try await fixture.start()
        _ = try await fixture.jsAwait("Hybrid.call('patch', 'configure', {token: 't'})")
        try await poll("the start check") { stub.checks.count >= 3 }
        #expect(stub.reports.count == 3)
    }

    @Test("while the server is away the checks back off, and the reports wait and are retried")
    func backoff() async throws {
        let stub = PatchServerStub()
        try await stub.start()
        stub.setAway(true)
        let patches = #"{"server": "\#(stub.base)", "checkEvery": 0.2}"#
        let fixture = try PatchFixture(files: ["main.js": Self.main, "greet.js": Self.greet, "other.js": Self.other],
                                       grants: ["patch", "network:127.0.0.1"], patches: patches)
        defer { fixture.remove() }
        try await fixture.start()
        // 0.2 × 2^n after n failures: the fifth check comes ≥ 0.4 + 0.8 + 1.6 + 3.2 s (less a tenth) after the first.
        try await poll("five checks", timeout: 60) { stub.checks.count >= 5 }
        let times = stub.checkTimes
        let gaps = zip(times.dropFirst(), times).map { $0.timeIntervalSince($1) }
        #expect(gaps[0] >= 0.36 && gaps[1] >= 0.72 && gaps[2] >= 1.44 && gaps[3] >= 2.88, "gaps \(gaps)")
        // The app is not blocked meanwhile.
        #expect(try await fixture.js("greet.hello()") == "hello v0")

        // A report waits while the server is away, is retried, and goes once it is back.
        try await fixture.apply(try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'hello v1';\n")]))
        _ = try await fixture.jsAwait("Hybrid.call('patch', 'configure', {token: 't'})")
        try await Task.sleep(for: .milliseconds(300))
        #expect(stub.reports.isEmpty)
        stub.setAway(false)
        try await poll("the applied report", timeout: 60) { stub.reports.count == 1 }
        #expect(stub.reports.first?.event == "applied")
        fixture.stop()
        await stub.stop()
    }

    @Test("app.json patches is checked, naming the field and what was expected")
    func settingsErrors() throws {
        let cases: [(String, String)] = [
            (#""x""#, "patches: expected an object"),
            (#"{"channel": "beta"}"#, "patches.server: expected the patch server's URL"),
            (#"{"server": "ftp://x"}"#, "patches.server: expected an http or https URL"),
            (#"{"server": "https://p.example.com", "channel": "bad channel"}"#, "patches.channel: expected a name"),
            (#"{"server": "https://p.example.com", "checkEvery": 0}"#, "patches.checkEvery: expected seconds between two checks"),
            (#"{"server": "https://p.example.com", "every": 5}"#, "patches.every: unknown key"),
            (#"{"server": "https://p.example.com", "autoCheck": "no"}"#, "patches.autoCheck: expected true"),
        ]
        for (value, expected) in cases {
            let fixture = try PatchFixture(files: ["main.js": "1;\n"], patches: value)
            defer { fixture.remove() }
            do {
                _ = try AppManifest.load(path: fixture.appDirectory, grantFlags: [])
                Issue.record("\(value) was accepted")
            } catch {
                #expect(error.description.contains(expected), "\(value): \(error.description)")
            }
        }
        let fixture = try PatchFixture(files: ["main.js": "1;\n"], patches: #"{"server": "https://p.example.com/"}"#)
        defer { fixture.remove() }
        let manifest = try AppManifest.load(path: fixture.appDirectory, grantFlags: [])
        #expect(manifest.patchServer == PatchServerSettings(server: "https://p.example.com", channel: "production", checkEvery: 3600))
    }

    @Test("with autoCheck false nothing is checked at start or on a timer; patch.check {} still checks")
    func manualChecksOnly() async throws {
        let stub = PatchServerStub()
        try await stub.start()
        let patches = #"{"server": "\#(stub.base)", "checkEvery": 0.1, "autoCheck": false}"#
        let fixture = try PatchFixture(files: ["main.js": Self.main, "greet.js": Self.greet, "other.js": Self.other],
                                       grants: ["patch", "device", "network:127.0.0.1"], patches: patches)
        defer { fixture.remove() }
        try await fixture.start()
        // Ten check intervals go by without a check.
        try await Task.sleep(for: .seconds(1))
        #expect(stub.checks.isEmpty)
        stub.offer(try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'hello v1';\n")]))
        #expect(try await check(fixture)["outcome"] == "applied")
        #expect(stub.checks.count == 1)
        fixture.stop()
        await stub.stop()
    }

    @Test("hybrid run --patch-server replaces app.json's server, or adds one with the defaults; a bad URL names the flag")
    func serverFromTheCommandLine() async throws {
        let stub = PatchServerStub()
        try await stub.start()
        for patches in [#"{"server": "https://elsewhere.example.com", "channel": "beta"}"#, nil] {
            let fixture = try PatchFixture(files: ["main.js": Self.main, "greet.js": Self.greet, "other.js": Self.other],
                                           grants: ["patch", "device", "network:127.0.0.1"], patches: patches)
            defer { fixture.remove() }
            var options = AppRunOptions(dataDirectory: fixture.dataDirectory)
            options.patchServer = stub.base
            let session = try AppSession(path: fixture.appDirectory, options: options)
            #expect(session.patches.server?.settings.server == stub.base)
            #expect(session.patches.server?.settings.channel == (patches == nil ? "production" : "beta"))
            session.shutdown()
        }
        let fixture = try PatchFixture(files: ["main.js": Self.main], patches: nil)
        defer { fixture.remove() }
        var options = AppRunOptions(dataDirectory: fixture.dataDirectory)
        options.patchServer = "ftp://nowhere"
        #expect { try AppSession(path: fixture.appDirectory, options: options) } throws: { error in
            "\(error)".contains("--patch-server: expected an http or https URL")
        }
        await stub.stop()
    }
}

/// Polls `condition` every 10 ms until it holds, or fails after `timeout` seconds.
func poll(_ what: String, timeout: Double = 20, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw FixtureError("timed out waiting for \(what)")
}

/// Deltas need PatchProtocol's `PatchDelta` (zstd with the running source as prefix).
@Suite("patch server client: delta downloads")
struct PatchDeltaDownloadTests {
    @Test("a one-line change in a 200 KB module comes as a delta of at most 2 KB, is rebuilt, verified and applied")
    func oneLineChange() async throws {
        let stub = PatchServerStub()
        try await stub.start()
        let lines = (0..<4000).map { "exports.f\($0) = (x) => x * \($0) + \($0 % 7); // line \($0) of a large module\n" }
        let large = "module.hot.accept();\n" + lines.joined()
        #expect(large.utf8.count > 200_000)
        var changed = lines
        changed[2000] = "exports.f2000 = (x) => x * 2001; // the fix\n"
        let fixed = "module.hot.accept();\n" + changed.joined()
        stub.registerDeltaSource(large)
        let patches = #"{"server": "\#(stub.base)", "checkEvery": 3600}"#
        let fixture = try PatchFixture(files: ["main.js": "globalThis.big = require('./big');\n", "big.js": large],
                                       grants: ["patch", "network:127.0.0.1"], patches: patches)
        defer { fixture.remove() }
        try await fixture.start()
        try await poll("the check at start") { stub.checks.count >= 1 && fixture.session?.patches.server?.isChecking == false }
        stub.offer(try fixture.patch(1, ["big.js": (.amend, fixed)]))
        let applied = try await fixture.jsAwait("Hybrid.call('patch', 'check', {})")
        #expect(applied["outcome"] == "applied", "\(applied)")
        let delta = try #require(stub.lastOffer?["modules"]?["big.js"]?["delta"]?["data"]?.stringValue)
        let bytes = try #require(Base64.decode(delta))
        #expect(bytes.count <= 2048, "the delta is \(bytes.count) bytes")
        #expect(try await fixture.js("big.f2000(1)") == 2001)
        #expect(try await fixture.js("big.f1999(1)") == 2003)
        fixture.stop()
        await stub.stop()
    }
}
