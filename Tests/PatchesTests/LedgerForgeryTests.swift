import Foundation
import JSON
import PatchProtocol
import Patches
import Testing

/// A ledger.json written straight to disk (not by the host, so without a MAC that verifies) is
/// not obeyed: no rollback to an older patch, no reset that lets an old patch be replayed.
@Suite("A tampered ledger.json is not obeyed")
struct LedgerForgeryTests {
    static let main = "globalThis.greet = require('./greet');\n"
    static let greet = "module.hot.accept();\nexports.hello = () => 'hello v0';\n"

    /// An app that confirmed patches 1, 2 and 3 (all three kept), then stopped.
    func withStoppedApp(_ body: (PatchFixture) async throws -> Void) async throws {
        let fixture = try PatchFixture(files: ["main.js": Self.main, "greet.js": Self.greet])
        defer { fixture.remove() }
        try await fixture.start()
        for version in 1...3 {
            try await fixture.apply(patch(fixture, version))
            _ = try await fixture.jsAwait("Hybrid.call('patch', 'ready')")
        }
        fixture.stop()
        try await body(fixture)
    }

    func patch(_ fixture: PatchFixture, _ version: Int) throws -> SignedPatch {
        try fixture.patch(version, ["greet.js": (.amend, "exports.hello = () => 'hello v\(version)';\n")])
    }

    func writeLedger(_ fixture: PatchFixture, _ text: String) throws {
        try text.write(toFile: fixture.dataDirectory + "/patch-ledger/ledger.json", atomically: true, encoding: .utf8)
    }

    @Test("a ledger the host wrote carries a MAC, and the host trusts it across restarts")
    func authentic() async throws {
        try await withStoppedApp { fixture in
            let text = fixture.ledgerText()
            #expect(text.contains("\"mac\": \"hmac-sha256:"), "\(text)")
            try await fixture.start()
            #expect(try await fixture.js("greet.hello()") == "hello v3")
            #expect(!fixture.stderr.value.contains("ledger.json"), "\(fixture.stderr.value)")
        }
    }

    @Test("a forged ledger naming an older patch does not roll the app back to it; the highest version stays",
          arguments: [
              // The attack as it was: no MAC at all.
              #"{"current": 1, "highestVersion": 1, "records": [{"patchVersion": 1, "state": "confirmed", "at": "2026-01-01T00:00:00Z", "launched": true, "modules": ["greet.js"]}]}"#,
              // A MAC that is not the host's.
              #"{"current": 1, "highestVersion": 1, "records": [{"patchVersion": 1, "state": "confirmed", "at": "2026-01-01T00:00:00Z", "launched": true, "modules": ["greet.js"]}], "mac": "hmac-sha256:00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"}"#,
          ])
    func noRollback(forged: String) async throws {
        try await withStoppedApp { fixture in
            try writeLedger(fixture, forged)
            try await fixture.start()
            #expect(try await fixture.js("greet.hello()") != "hello v1", "the forged ledger's older patch does not run")
            let current = try await fixture.jsAwait("Hybrid.call('patch', 'current')")
            #expect(current["patchVersion"] != 1, "\(current)")
            #expect((current["highestVersion"]?.intValue ?? 0) >= 3, "\(current)")
            #expect(fixture.stderr.value.contains("patch-ledger/ledger.json"), "reported: \(fixture.stderr.value)")
            // Nothing it named can be rolled back to later either.
            await #expect(throws: PatchError.self) { try await fixture.rollback(reason: "by hand") }
            #expect(try await fixture.js("greet.hello()") != "hello v1")
        }
    }

    @Test("a forged ledger that resets the history does not let an old patch be replayed; a newer one applies",
          arguments: [#"{"current": null, "highestVersion": 0, "records": []}"#, "{}", "not json", ""])
    func noReplay(forged: String) async throws {
        try await withStoppedApp { fixture in
            try writeLedger(fixture, forged)
            try await fixture.start()
            #expect((try await fixture.jsAwait("Hybrid.call('patch', 'current')")["highestVersion"]?.intValue ?? 0) >= 3)
            for version in 1...3 {
                let old = try patch(fixture, version)
                do throws(PatchError) {
                    try await fixture.apply(old)
                    Issue.record("patch \(version) replayed")
                } catch {
                    #expect(error.code == .stale, "\(error)")
                }
            }
            try await fixture.apply(patch(fixture, 4))
            #expect(try await fixture.js("greet.hello()") == "hello v4")
            // The host's own ledger again: trusted at the next start.
            _ = try await fixture.jsAwait("Hybrid.call('patch', 'ready')")
            fixture.stop()
            let reports = fixture.stderr.value
            try await fixture.start()
            #expect(try await fixture.js("greet.hello()") == "hello v4")
            #expect(fixture.stderr.value == reports, "no new report: \(fixture.stderr.value)")
        }
    }

    @Test("a forged ledger is reported once, recorded in the history, and replaced by the host's own at start-up")
    func recorded() async throws {
        try await withStoppedApp { fixture in
            try writeLedger(fixture, #"{"current": 1, "highestVersion": 1, "records": [{"patchVersion": 1, "state": "confirmed", "at": "2026-01-01T00:00:00Z", "launched": true, "modules": ["greet.js"]}]}"#)
            try await fixture.start()
            let history = try await fixture.jsAwait("Hybrid.call('patch', 'history')")
            let record = try #require(history["records"]?[0])
            #expect(record["patchVersion"] == 1 && record["state"] == "rolledBack", "\(history)")
            #expect(record["reason"]?.stringValue?.contains("MAC") == true, "\(history)")
            #expect(fixture.ledgerText().contains("\"mac\": \"hmac-sha256:"))
            #expect(try fixture.ledger().unverified == nil, "the host's own now")
            fixture.stop()
            let reports = fixture.stderr.value
            try await fixture.start()
            #expect(fixture.stderr.value == reports, "reported once: \(fixture.stderr.value)")
        }
    }
}
