import Foundation
import JSON
import PatchProtocol
@testable import Patches
import Testing

/// The ledger's MAC on its own: which key verifies it, where that key may live, and what a ledger
/// that does not verify becomes.
@Suite("The patch ledger's MAC")
struct PatchLedgerMACTests {
    /// A data folder with a ledger that applied patches 1 and 2 (2 in effect), saved with `key`.
    func withLedger(key: PatchLedgerKey, _ body: (PatchFixture, String) throws -> Void) throws {
        let fixture = try PatchFixture(files: ["main.js": "", "greet.js": ""])
        defer { fixture.remove() }
        var ledger = PatchLedger(directory: PatchLedger.directory(dataDirectory: fixture.dataDirectory), key: key)
        for version in 1...2 {
            try ledger.verified(try fixture.patch(version, ["greet.js": (.amend, "exports.v = \(version);\n")]))
            ledger.applied(version, launched: false)
        }
        try ledger.save()
        try body(fixture, fixture.dataDirectory)
    }

    func temporaryKey() -> PatchLedgerKey {
        PatchLedgerKey(path: NSTemporaryDirectory() + "ledger-key-\(UUID().uuidString)/patch-ledger.key")
    }

    func remove(_ key: PatchLedgerKey) {
        try? FileManager.default.removeItem(atPath: (key.path as NSString).deletingLastPathComponent)
    }

    @Test("a ledger verifies with the key that wrote it, and with no other: then nothing in it is obeyed, and its highest version stays")
    func otherKey() throws {
        let mine = temporaryKey(), other = temporaryKey()
        defer { remove(mine); remove(other) }
        _ = try other.existingOrNew()
        try withLedger(key: mine) { _, data in
            let trusted = try PatchLedger.load(dataDirectory: data, key: mine)
            #expect(trusted.unverified == nil)
            #expect(trusted.current == 2 && trusted.highestVersion == 2)
            #expect(trusted.records.map(\.state) == [.applied, .applied])

            let distrusted = try PatchLedger.load(dataDirectory: data, key: other)
            #expect(distrusted.unverified == "patch-ledger/ledger.json was not written by this host (its MAC does not verify with the host's key), so it is not obeyed")
            #expect(distrusted.current == nil)
            #expect(distrusted.highestVersion == 2)
            #expect(distrusted.records.map(\.state) == [.rolledBack, .rolledBack])
            #expect(distrusted.records.allSatisfy { $0.reason == distrusted.unverified && !$0.launched })
            #expect(distrusted.fallback(below: 3) == nil, "nothing to roll back to")
        }
    }

    @Test("a key that does not exist (a data folder from another machine) distrusts the ledger, saying so")
    func missingKey() throws {
        let mine = temporaryKey(), gone = temporaryKey()
        defer { remove(mine) }
        try withLedger(key: mine) { _, data in
            let ledger = try PatchLedger.load(dataDirectory: data, key: gone)
            #expect(ledger.unverified?.contains("the host's key \(gone.path) does not exist") == true, "\(ledger.unverified ?? "")")
            #expect(ledger.highestVersion == 2)
            #expect(!FileManager.default.fileExists(atPath: gone.path), "loading makes no key")
        }
    }

    @Test("an edit to any field, even one that changes no meaning, fails the MAC; the layout does not")
    func edits() throws {
        let mine = temporaryKey()
        defer { remove(mine) }
        try withLedger(key: mine) { fixture, data in
            let path = data + "/patch-ledger/ledger.json"
            let original = try String(contentsOfFile: path, encoding: .utf8)
            // The same JSON, laid out on one line and with its members in another order: still the host's.
            var object = try #require(try JSONParser.parse(original).objectValue)
            let reordered = JSONObject(object.members.reversed())
            try JSONWriter.write(.object(reordered)).write(toFile: path, atomically: true, encoding: .utf8)
            #expect(try PatchLedger.load(dataDirectory: data, key: mine).unverified == nil)
            // One field changed.
            object["highestVersion"] = 7
            try JSONWriter.write(.object(object)).write(toFile: path, atomically: true, encoding: .utf8)
            let edited = try PatchLedger.load(dataDirectory: data, key: mine)
            #expect(edited.unverified?.contains("its MAC does not verify") == true)
            #expect(edited.highestVersion == 7, "a claim that raises it is kept: a replay is the worse outcome")
        }
    }

    @Test("a ledger.json that is a folder or a symbolic link is distrusted, not taken for none", arguments: ["folder", "link"])
    func notAFile(kind: String) throws {
        let mine = temporaryKey()
        defer { remove(mine) }
        try withLedger(key: mine) { _, data in
            let path = data + "/patch-ledger/ledger.json"
            try FileManager.default.removeItem(atPath: path)
            if kind == "folder" {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            } else {
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/nonexistent/ledger.json")
            }
            let ledger = try PatchLedger.load(dataDirectory: data, key: mine)
            #expect(ledger.unverified?.contains("it is not a plain file") == true, "\(ledger.unverified ?? "")")
            #expect(ledger.highestVersion == 2, "the kept patch files still count")
        }
    }

    @Test("a key inside the data folder protects nothing: saving refuses it, and a ledger read with it is distrusted")
    func keyInsideDataFolder() throws {
        let mine = temporaryKey()
        defer { remove(mine) }
        try withLedger(key: mine) { _, data in
            let inside = PatchLedgerKey(path: data + "/keys/patch-ledger.key")
            let ledger = try PatchLedger.load(dataDirectory: data, key: inside)
            #expect(ledger.unverified?.contains("is inside the data folder") == true, "\(ledger.unverified ?? "")")
            let fresh = PatchLedger(directory: PatchLedger.directory(dataDirectory: data), key: inside)
            #expect(throws: PatchError.self) { try fresh.save() }
            #expect(!FileManager.default.fileExists(atPath: inside.path), "no key made there")
        }
    }

    @Test("threads making the key at once agree on one, readable by the user only")
    func oneKey() async throws {
        let key = temporaryKey()
        defer { remove(key) }
        // Each thread's MAC of the same object: one key, one MAC.
        let macs = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? key.existingOrNew()).map { key.mac(of: ["n": 1], with: $0) } }
            }
            return await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        #expect(macs.count == 1 && macs.first! != nil, "\(macs)")
        let text = try String(contentsOfFile: key.path, encoding: .utf8)
        #expect(Base64.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))?.count == 32)
        let attributes = try FileManager.default.attributesOfItem(atPath: key.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: (key.path as NSString).deletingLastPathComponent) == ["patch-ledger.key"])
    }
}
