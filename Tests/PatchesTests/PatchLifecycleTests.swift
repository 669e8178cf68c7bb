import Engine
import Foundation
import HostTesting
import JSON
import PatchProtocol
import Patches
import ScriptSources
import Testing

/// verified → applied → confirmed, or rolledBack with the reason, kept in the data dir.
@Suite("Patch lifecycle")
struct PatchLifecycleTests {
    @Test("a patched module that throws while loading is rolled back automatically, the reason recorded, the app as it was")
    func throwingPatchRolledBack() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            _ = try await app.js("app.counter().increment()")
            let throwing = try app.patch(3, ["lib.js": (.amend, "exports.greet = () => 'x'; throw new Error('boom at load');"),
                                             "counter.js": (.replace, "module.hot.accept(); throw new Error('counter boom');")])
            do throws(PatchError) {
                try await app.apply(throwing)
                Issue.record("applied")
            } catch {
                #expect(error.code == .threw)
            }
            #expect(try await app.js("[app.greet('a'), app.counter().read(), app.counter().flavour]") == ["hello a", 1, "shipped"])
            let record = try #require(try app.ledger().record(3))
            #expect(record.state == .rolledBack)
            #expect(record.reason?.contains("boom") == true)
            #expect(try app.ledger().current == nil)
            #expect(try app.ledger().highestVersion == 3)
            #expect(app.stderr.value.contains("patch 3 rolled back"))
        }
    }

    @Test("a replaced module that throws while loading is put back, with the patch rolled back")
    func throwingReplaceRolledBack() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            _ = try await app.js("app.counter().increment()")
            let patch = try app.patch(1, ["counter.js": (.replace, "module.hot.accept(); throw new Error('counter boom');")])
            await #expect(throws: PatchError.self) { try await app.apply(patch) }
            #expect(try await app.js("[app.counter().increment(), app.counter().flavour]") == [2, "shipped"])
            #expect(try app.ledger().record(1)?.state == .rolledBack)
        }
    }

    @Test("a rollback's reason says where the patch threw, through the source map registered for the patch's module")
    func rollbackReasonLocation() async throws {
        try await withPatchApp(libraryApp) { app in
            let session = try await app.start()
            _ = try await app.js("app.counter().increment()")
            // A patch's module is compiled as FILE?patch=VERSION; a map registered under that URL
            // (as compileModule registers a transformed module's) takes line 1 to counter.ts line 5.
            let map = try SourceMap(["version": 3, "sources": ["counter.ts"], "mappings": "AAIA"], location: app.appDirectory + "/counter.js.map")
            session.engine.sourceMaps.register(url: app.appDirectory + "/counter.js?patch=1", map: map,
                                               firstLineColumnOffset: ScriptContext.moduleWrapperPrefix.utf16.count)
            await #expect(throws: PatchError.self) {
                try await app.apply(try app.patch(1, ["counter.js": (.replace, "module.hot.accept(); throw new Error('counter boom');")]))
            }
            let reason = try #require(try app.ledger().record(1)?.reason)
            #expect(reason.contains("Error: counter boom at \(app.appDirectory)/counter.ts:5:1"), "\(reason)")

            // Without a map, the patch's own line and column (line 1 less the module wrapper).
            try await app.apply(try app.patch(2, ["lib.js": (.amend, "exports.greet = (n) => { throw new Error('bad greet ' + n); };")]))
            for i in 0..<3 { _ = try await app.js("try { app.greet('\(i)') } catch (e) {}") }
            #expect(try await eventually { app.session!.patches.current.patchVersion == nil })
            let fault = try #require(try app.ledger().record(2)?.reason)
            #expect(fault.contains("(last: Error: bad greet 2 at \(app.appDirectory)/lib.js?patch=2:1:"), "\(fault)")
        }
    }

    @Test("an amended function that throws 3 times before confirmation rolls its patch back; after patch.ready it does not")
    func faultsRollBack() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            try await app.apply(try app.patch(1, ["lib.js": (.amend, "exports.greet = (n) => { throw new Error('bad greet ' + n); };")]))
            for i in 0..<3 {
                #expect(try await app.js("try { app.greet('\(i)'); 'no throw' } catch (e) { e.message }") == .string("bad greet \(i)"))
            }
            #expect(try await eventually { app.session!.patches.current.patchVersion == nil })
            #expect(try await app.js("app.greet('z')") == "hello z")
            let record = try #require(try app.ledger().record(1))
            #expect(record.state == .rolledBack)
            #expect(record.reason?.contains("lib.js.greet threw 3 times") == true, "\(record.reason ?? "")")

            // Confirmed: throws are the app's business now.
            try await app.apply(try app.patch(2, ["lib.js": (.amend, "exports.greet = (n) => { throw new Error('confirmed ' + n); };")]))
            #expect(try await app.jsAwait("Hybrid.call('patch', 'ready')")["state"] == "confirmed")
            for _ in 0..<5 { _ = try await app.js("try { app.greet('q') } catch (e) {}") }
            try await Task.sleep(for: .milliseconds(100))
            #expect(app.session!.patches.current.patchVersion == 2)
        }
    }

    @Test("a patch not confirmed before the app restarts is rolled back at the next start, to the last confirmed one")
    func unconfirmedRolledBackAtRestart() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            try await app.apply(try app.patch(1, ["lib.js": (.amend, "exports.greet = (n) => 'one ' + n;")]))
            _ = try await app.jsAwait("Hybrid.call('patch', 'ready')")
            try await app.apply(try app.patch(2, ["lib.js": (.amend, "exports.greet = (n) => 'two ' + n;")]))
            #expect(try await app.js("app.greet('a')") == "two a")
            app.stop()

            try await app.start()
            #expect(try await app.js("app.greet('a')") == "one a")
            let ledger = try app.ledger()
            #expect(ledger.current == 1)
            #expect(ledger.record(2)?.state == .rolledBack)
            #expect(ledger.record(2)?.reason == "not confirmed (patch.ready) before the app restarted")
            #expect(try await app.jsAwait("Hybrid.call('patch', 'current')") == ["patchVersion": 1, "state": "confirmed", "epoch": 1, "highestVersion": 2])
            app.stop()

            // Confirmed patches stay across restarts.
            try await app.start()
            #expect(try await app.js("app.greet('a')") == "one a")
        }
    }

    @Test("a patch installed while the app is stopped runs from the next start, and is rolled back if that run never confirms it")
    func installedPatch() async throws {
        try await withPatchApp(libraryApp) { app in
            let patch = try app.patch(1, ["counter.js": (.replace, "exports.flavour = 'installed'; exports.read = () => -1;")])
            try PatchInstaller.install(patch, trust: app.trust, dataDirectory: app.dataDirectory)
            #expect(throws: PatchError.self) { try PatchInstaller.install(patch, trust: app.trust, dataDirectory: app.dataDirectory) }
            try await app.start()
            // Replace at start-up needs no accept: the module has not loaded yet.
            #expect(try await app.js("app.counter().flavour") == "installed")
            app.stop()
            try await app.start()
            #expect(try await app.js("app.counter().flavour") == "shipped")
            #expect(try app.ledger().record(1)?.state == .rolledBack)
        }
    }

    @Test("the files of the last 3 patches are kept; rolling back walks them down to the shipped code, the floor")
    func lastThreeKept() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            for version in 1...5 {
                try await app.apply(try app.patch(version, ["lib.js": (.amend, "exports.greet = (n) => 'v\(version) ' + n;")]))
                _ = try await app.jsAwait("Hybrid.call('patch', 'ready')")
            }
            let kept = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory + "/patch-ledger").sorted()
            #expect(kept == ["3.json", "4.json", "5.json", "ledger.json"])
            var seen: [JSONValue] = []
            for _ in 0..<3 {
                try await app.rollback(reason: "by hand")
                seen.append(try await app.js("app.greet('a')"))
            }
            #expect(seen == ["v4 a", "v3 a", "hello a"])
            await #expect(throws: PatchError.self) { try await app.rollback(reason: "again") }
            #expect(try app.ledger().records.filter { $0.state == .rolledBack }.map(\.reason) == ["by hand", "by hand", "by hand"])
        }
    }

    @Test("a patch dropped into <data dir>/patches/ is applied while the app runs; a refused one is set aside with its reason")
    func dropFolder() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            let folder = app.dataDirectory + "/patches"
            let good = try app.patch(1, ["lib.js": (.amend, "exports.greet = (n) => 'dropped ' + n;")])
            try good.text.write(toFile: folder + "/.incoming", atomically: true, encoding: .utf8)
            try FileManager.default.moveItem(atPath: folder + "/.incoming", toPath: folder + "/p1.json")
            #expect(try await eventually { app.session!.patches.current.patchVersion == 1 })
            #expect(try await app.js("app.greet('a')") == "dropped a")
            #expect(!FileManager.default.fileExists(atPath: folder + "/p1.json"))

            try good.text.write(toFile: folder + "/again.json", atomically: true, encoding: .utf8)
            #expect(try await eventually { FileManager.default.fileExists(atPath: folder + "/again.json.refused") })
            let reason = try String(contentsOfFile: folder + "/again.json.refused.txt", encoding: .utf8)
            #expect(reason.contains("a downgrade or a replay"))
        }
    }

    @Test("a symbolic link in <data dir>/patches/ is refused unread, even to a good patch outside the data folder")
    func dropFolderLink() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            let folder = app.dataDirectory + "/patches"
            let outside = NSTemporaryDirectory() + "patch-outside-" + UUID().uuidString + ".json"
            defer { try? FileManager.default.removeItem(atPath: outside) }
            let good = try app.patch(1, ["lib.js": (.amend, "exports.greet = (n) => 'linked ' + n;")])
            try good.text.write(toFile: outside, atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: folder + "/linked.json", withDestinationPath: outside)
            #expect(try await eventually { FileManager.default.fileExists(atPath: folder + "/linked.json.refused.txt") })
            let reason = try String(contentsOfFile: folder + "/linked.json.refused.txt", encoding: .utf8)
            #expect(reason.contains("symbolic link"))
            #expect(app.session!.patches.current.patchVersion == nil)
            #expect(try await app.js("app.greet('a')") == "hello a")
            #expect(try String(contentsOfFile: outside, encoding: .utf8) == good.text)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/linked.json.refused") == outside)
        }
    }

    @Test("the patch service reports the patch in effect and the history; check needs a network grant for its endpoint")
    func service() async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            #expect(try await app.jsAwait("Hybrid.call('patch', 'current')") == ["patchVersion": nil, "state": "shipped", "epoch": 0, "highestVersion": 0])
            #expect(try await app.jsAwait("Hybrid.call('patch', 'ready')")["state"] == "shipped")
            try await app.apply(try app.patch(4, ["lib.js": (.amend, "exports.greet = (n) => n;")]))
            let history = try await app.jsAwait("Hybrid.call('patch', 'history')")
            #expect(history["records"]?[0]?["patchVersion"] == 4)
            #expect(history["records"]?[0]?["state"] == "applied")
            #expect(try await app.jsAwait("Hybrid.call('patch', 'check', {url: 'http://127.0.0.1:1/'}).catch(e => [e.code, e.details.reason])") == ["E_DENIED", "host"])
        }
    }
}
