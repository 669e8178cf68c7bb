import Foundation
import Glibc
import JSON
import Patches
import Testing

/// The security finding this suite pins down: with only `network:127.0.0.1`, `network.download`
/// could write `patch-ledger/ledger.json` and so roll the app back to an older signed patch at the
/// next start, reset it so that an old patch could be replayed, or raise `highestVersion` to block
/// legitimate patches. Downloads now stay out of the host's own entries, and a ledger the host did
/// not write (its MAC does not verify) is never obeyed.
@Suite("A script cannot rewrite or forge the patch ledger")
struct LedgerTamperingTests {
    static let main = "globalThis.greet = require('./greet');\n"
    static let greet = "module.hot.accept();\nexports.hello = () => 'hello v0';\n"

    /// What the attack served: the ledger of an app that confirmed patch 1 and saw nothing newer.
    static let forgedLedger = #"""
        {"current": 1, "highestVersion": 1, "records": [{"patchVersion": 1, "state": "confirmed", "at": "2026-01-01T00:00:00Z", "launched": true, "modules": ["greet.js"]}]}
        """#

    /// An app on confirmed patch 2 (patch 1 kept to roll back to), with kv and a storage database
    /// on disk, and an endpoint on 127.0.0.1 serving the forged ledger.
    func withPatchedApp(_ body: (PatchFixture, PatchEndpoint) async throws -> Void) async throws {
        let endpoint = PatchEndpoint()
        try await endpoint.start()
        let fixture = try PatchFixture(files: ["main.js": Self.main, "greet.js": Self.greet],
                                       grants: ["patch", "network:127.0.0.1", "kv", "storage"])
        defer { fixture.remove() }
        try await fixture.start()
        for version in 1...2 {
            try await fixture.apply(try fixture.patch(version, ["greet.js": (.amend, "exports.hello = () => 'hello v\(version)';\n")]))
            _ = try await fixture.jsAwait("Hybrid.call('patch', 'ready')")
        }
        _ = try await fixture.jsAwait("Hybrid.call('kv', 'set', {bucket: 'prefs', key: 'theme', value: 'dark'})")
        _ = try await fixture.jsAwait("""
            Hybrid.call('storage', 'open', {database: 'tasks', schema: {version: 1, tables: {tasks: {columns: {id: 'INTEGER', title: 'TEXT'}, primaryKey: 'id'}}}})
            """)
        endpoint.serve(Self.forgedLedger)
        try await body(fixture, endpoint)
        fixture.stop()
        await endpoint.stop()
    }

    /// What a download from JS answered: `{saved}` or `{code, path, message}`.
    func download(_ fixture: PatchFixture, _ url: String, to path: String) async throws -> JSONValue {
        let quoted = JSONWriter.write(.string(path))
        return try await fixture.jsAwait("""
            Hybrid.call('network', 'download', {url: '\(url)', path: \(quoted)})
              .then((r) => ({saved: r.saved, path: r.path}), (e) => ({code: e.code, path: e.path, message: e.message}))
            """)
    }

    /// The ledger folder's files and their bytes.
    func ledgerFolder(_ fixture: PatchFixture) throws -> [String: Data] {
        let folder = fixture.dataDirectory + "/patch-ledger"
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    /// The app runs patch 2 after a restart, and patch 3 from the endpoint still applies.
    func expectPatchesStillApply(_ fixture: PatchFixture, _ endpoint: PatchEndpoint) async throws {
        fixture.stop()
        try await fixture.start()
        #expect(try await fixture.js("greet.hello()") == "hello v2")
        #expect(try await fixture.jsAwait("Hybrid.call('patch', 'current')") == ["patchVersion": 2, "state": "confirmed", "epoch": 1, "highestVersion": 2])
        endpoint.serve(try fixture.patch(3, ["greet.js": (.amend, "exports.hello = () => 'hello v3';\n")]).text)
        let check = try await fixture.jsAwait("Hybrid.call('patch', 'check', {url: '\(endpoint.url)'})")
        #expect(check["outcome"] == "applied" && check["patchVersion"] == 3, "\(check)")
        #expect(try await fixture.js("greet.hello()") == "hello v3")
    }

    @Test("a download into the host's own entries is E_BAD_PARAMS at /path, the ledger is unchanged, and patches still apply",
          arguments: ["patch-ledger/ledger.json", "media/../patch-ledger/ledger.json", "./patch-ledger//ledger.json",
                      "Patch-Ledger/ledger.json", "patch-ledger./ledger.json", "patch-ledger/1.json", "patch-ledger/3.json",
                      "patches/evil.json", "PATCHES/evil.json", "patche\u{17F}/evil.json",
                      ".kv.sqlite", ".kv.sqlite-wal", ".kv.sqlite-shm", "tasks.sqlite", "tasks.sqlite-wal", "tasks.sqlite-shm",
                      "tasks.sqlite-journal", "Tasks.SQLite", "other.sqlite", ".http-cache/entry", "device-id"])
    func refused(path: String) async throws {
        try await withPatchedApp { fixture, endpoint in
            let before = try ledgerFolder(fixture)
            let target = fixture.dataDirectory + "/" + path
            let existed = FileManager.default.contents(atPath: target)
            let answer = try await download(fixture, endpoint.url, to: path)
            #expect(answer["code"] == "E_BAD_PARAMS", "\(answer)")
            #expect(answer["path"] == "/path", "\(answer)")
            let message = answer["message"]?.stringValue ?? ""
            #expect(message.contains("params/path") && message.contains("host"), "\(message)")
            #expect(try ledgerFolder(fixture) == before, "the ledger folder is as it was")
            #expect(FileManager.default.contents(atPath: target) == existed, "\(path) is as it was")
            try await expectPatchesStillApply(fixture, endpoint)
        }
    }

    @Test("a symbolic link to the ledger, or its folder, inside the data folder does not let a download through")
    func symbolicLinks() async throws {
        try await withPatchedApp { fixture, endpoint in
            let before = try ledgerFolder(fixture)
            let data = fixture.dataDirectory
            try FileManager.default.createSymbolicLink(atPath: data + "/media", withDestinationPath: data + "/patch-ledger")
            try FileManager.default.createSymbolicLink(atPath: data + "/notes.json", withDestinationPath: "patch-ledger/ledger.json")
            for path in ["media/ledger.json", "notes.json"] {
                let answer = try await download(fixture, endpoint.url, to: path)
                #expect(answer["code"] == "E_BAD_PARAMS" && answer["path"] == "/path", "\(path): \(answer)")
            }
            #expect(try ledgerFolder(fixture) == before)
            try await expectPatchesStillApply(fixture, endpoint)
        }
    }

    @Test("the ledger's folder under another name, as the file system sees it (a bind mount), is refused too")
    func sameFolderAnotherName() async throws {
        try await withPatchedApp { fixture, endpoint in
            let before = try ledgerFolder(fixture)
            let data = fixture.dataDirectory
            try FileManager.default.createDirectory(atPath: data + "/media", withIntermediateDirectories: true)
            guard mount(data + "/patch-ledger", data + "/media", nil, UInt(MS_BIND), nil) == 0 else {
                Issue.record("bind-mounting the ledger folder failed (\(String(cString: strerror(errno)))); this test needs root")
                return
            }
            defer { umount2(data + "/media", Int32(MNT_DETACH)) }
            let answer = try await download(fixture, endpoint.url, to: "media/ledger.json")
            #expect(answer["code"] == "E_BAD_PARAMS" && answer["path"] == "/path", "\(answer)")
            #expect(answer["message"]?.stringValue?.contains("patch-ledger") == true, "\(answer)")
            #expect(try ledgerFolder(fixture) == before)
            umount2(data + "/media", Int32(MNT_DETACH))
            try await expectPatchesStillApply(fixture, endpoint)
        }
    }

    @Test("a legitimate download still lands in the data folder, beside the host's entries and in folders of its own")
    func legitimate() async throws {
        try await withPatchedApp { fixture, endpoint in
            for path in ["ledger.json", "media/ledger.json", "media/patches/evil.json", "downloads/patch-ledger/ledger.json",
                         "media/tasks.sqlite", "media/.kv.sqlite", "tasks.sqlite.bak"] {
                let answer = try await download(fixture, endpoint.url, to: path)
                #expect(answer == ["saved": true, "path": .string(path)], "\(path): \(answer)")
                let saved = try String(contentsOfFile: fixture.dataDirectory + "/" + path, encoding: .utf8)
                #expect(saved == Self.forgedLedger, "\(path)")
            }
            try await expectPatchesStillApply(fixture, endpoint)
        }
    }
}
