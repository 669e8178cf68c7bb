import Foundation
import HostTesting
import JSON
import PatchProtocol
import Patches
import Testing

/// The patch loader on a data folder whose disk is full: a real tmpfs, filled by a file of the
/// test's, then given room again.
@Suite("Patches on a full disk")
struct PatchDiskFullTests {
    /// Runs `body` with an app whose data folder is on a 256 KiB disk and which runs patch 1
    /// (`greet` says "hi"), and the path of a filler file on that disk.
    func withPatchedApp(_ body: (PatchFixture, _ filler: String) async throws -> Void) async throws {
        let disk = try SmallDisk(kilobytes: 256)
        defer { disk.remove() }
        let app = try PatchFixture(files: libraryApp, dataDirectory: disk.path + "/data")
        defer { app.remove() }
        try await app.start()
        try await app.apply(try app.patch(1, ["lib.js": (.amend, "exports.greet = (n) => 'hi ' + n;")]))
        #expect(try await app.js("app.greet('a')") == "hi a")
        try await body(app, disk.path + "/filler")
    }

    /// Writes `path` until the disk is full, then gives back `freeBytes` (tmpfs counts whole pages).
    func fill(_ path: String, leaving freeBytes: Int = 0) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 7, count: 4096)
        var size = 0
        while case let n = chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }), n > 0 { size += n }
        let page = 4096
        #expect(ftruncate(fd, off_t(size - (freeBytes + page - 1) / page * page)) == 0)
    }

    func applyRefused(_ app: PatchFixture, _ patch: SignedPatch) async {
        do throws(PatchError) {
            try await app.apply(patch)
            Issue.record("applied on a full disk")
        } catch {
            #expect(error.code == .storage, "\(error)")
        }
    }

    @Test("applying a patch on a full disk fails as storage, leaves no half-written file and the app as it was; with room again it applies")
    func fullDisk() async throws {
        try await withPatchedApp { app, filler in
            let ledgerBefore = app.ledgerText()
            fill(filler)
            let patch = try app.patch(2, ["lib.js": (.amend, String(repeating: "// padding that needs room\n", count: 2000) + "exports.greet = (n) => 'hey ' + n;")])
            await applyRefused(app, patch)
            let greeting = try await app.js("app.greet('a')")
            #expect(greeting == "hi a", "the app runs the last applied patch, got \(greeting); stderr: \(app.stderr.value)")
            #expect(app.ledgerText() == ledgerBefore, "the ledger is as it was")
            let leftovers = try FileManager.default.subpathsOfDirectory(atPath: app.dataDirectory).filter { $0.contains(".tmp-") }
            #expect(leftovers.isEmpty, "half-written files: \(leftovers)")

            // Room again: the same patch applies.
            unlink(filler)
            try await app.apply(patch)
            #expect(try await app.js("app.greet('a')") == "hey a")
            #expect(try app.ledger().record(2)?.state == .applied)
        }
    }

    @Test("when the patch's file fits but the ledger does not, the swap is undone: the app runs what the ledger says")
    func ledgerDoesNotFit() async throws {
        try await withPatchedApp { app, filler in
            let ledgerBefore = app.ledgerText()
            let patch = try app.patch(2, ["lib.js": (.amend, String(repeating: "// padding\n", count: 1000) + "exports.greet = (n) => 'hey ' + n;")])
            fill(filler, leaving: patch.text.utf8.count)
            await applyRefused(app, patch)
            #expect(try await app.js("app.greet('a')") == "hi a", "the swap was undone")
            #expect(app.ledgerText() == ledgerBefore)
            #expect(!FileManager.default.fileExists(atPath: app.dataDirectory + "/patch-ledger/2.json"), "the unrecorded patch's file is gone")
            unlink(filler)
            try await app.apply(patch)
            #expect(try await app.js("app.greet('a')") == "hey a")
        }
    }
}
