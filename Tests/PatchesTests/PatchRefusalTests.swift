import Foundation
import JSON
import PatchProtocol
import Patches
import Testing

/// Every way a patch is refused (issue 6): each says why and leaves the app exactly as
/// it was, down to the ledger in the data dir.
@Suite("Refused patches")
struct PatchRefusalTests {
    enum Case: String, CaseIterable, CustomTestStringConvertible {
        case badHash, badSignature, unknownKey, downgrade, replay, wrongBase, expired, wrongApp,
             syntaxError, unknownModule, notAccepted

        var testDescription: String { rawValue }

        var expected: PatchError.Code {
            switch self {
            case .badHash: .badHash
            case .badSignature: .badSignature
            case .unknownKey: .unknownKey
            case .downgrade, .replay: .stale
            case .wrongBase: .wrongBase
            case .expired: .expired
            case .wrongApp: .wrongApp
            case .syntaxError: .syntax
            case .unknownModule: .unknownModule
            case .notAccepted: .notAccepted
            }
        }

        /// The patch to refuse; a case may apply an earlier one first.
        func patch(_ app: PatchFixture) async throws -> SignedPatch {
            let fix = "exports.greet = (name) => 'patched ' + name;"
            switch self {
            case .badHash:
                var patch = try app.patch(2, ["lib.js": (.amend, fix)])
                patch.sources["lib.js"] = "exports.greet = () => 'evil';"
                return patch
            case .badSignature:
                var patch = try app.patch(2, ["lib.js": (.amend, fix)])
                var bytes = Base64.decode(patch.signature)!
                bytes[0] ^= 1
                patch.signature = Base64.encode(bytes)
                return patch
            case .unknownKey:
                return try app.patch(2, ["lib.js": (.amend, fix)], privateKey: PatchSigner.generateKey().privateKey)
            case .downgrade:
                try await app.apply(try app.patch(5, ["lib.js": (.amend, fix)]))
                return try app.patch(3, ["lib.js": (.amend, "exports.greet = () => 'older';")])
            case .replay:
                let patch = try app.patch(5, ["lib.js": (.amend, fix)])
                try await app.apply(patch)
                return patch
            case .wrongBase:
                return try app.patch(2, ["lib.js": (.amend, fix)], base: "0.9.0")
            case .expired:
                return try app.patch(2, ["lib.js": (.amend, fix)], expires: "2020-01-01T00:00:00Z")
            case .wrongApp:
                let manifest = PatchManifest(app: "other", patchVersion: 2, baseVersion: "1.0.0",
                                             modules: ["lib.js": .init(mode: .amend, sha256: SignedPatch.sha256(fix))])
                return try PatchSigner.sign(manifest, sources: ["lib.js": fix], privateKey: app.key.privateKey)
            case .syntaxError:
                return try app.patch(2, ["lib.js": (.amend, fix), "counter.js": (.replace, "exports.read = () => {")])
            case .unknownModule:
                return try app.patch(2, ["lib.js": (.amend, fix), "missing.js": (.replace, "exports.x = 1;")])
            case .notAccepted:
                // lib.js alone would apply; stubborn.js never called module.hot.accept().
                return try app.patch(2, ["lib.js": (.amend, fix), "stubborn.js": (.replace, "exports.value = () => 'new';")])
            }
        }
    }

    @Test("a refused patch says why and leaves the app exactly as it was", arguments: Case.allCases)
    func refusal(_ refusal: Case) async throws {
        try await withPatchApp(libraryApp) { app in
            try await app.start()
            _ = try await app.js("app.counter().increment()")
            let patch = try await refusal.patch(app)
            let before = try await snapshot(app)
            do throws(PatchError) {
                try await app.apply(patch)
                Issue.record("\(refusal) was applied")
            } catch {
                #expect(error.code == refusal.expected, "\(error)")
                #expect(!error.message.isEmpty)
            }
            let after = try await snapshot(app)
            #expect(after == before)
        }
    }

    @Test("a file that is not a patch is refused as malformed, naming the field")
    func malformed() throws {
        for (text, field) in [("[]", "expected an object"), (#"{"app": "a"}"#, "patchVersion"),
                              (#"{"app": "a", "patchVersion": 1, "baseVersion": "1", "modules": {"../x.js": {"mode": "amend"}}}"#, "relative to the app folder"),
                              (#"{"app": "a", "patchVersion": 1, "baseVersion": "1", "modules": {"x.js": {"mode": "swap", "source": "", "sha256": ""}}, "key": "k", "signature": "s"}"#, "mode")] {
            do throws(PatchError) {
                _ = try SignedPatch.parse(text)
                Issue.record("parsed \(text)")
            } catch {
                #expect(error.code == .malformed)
                #expect(error.message.contains(field), "\(error.message)")
            }
        }
    }

    /// What JS sees of the app, the registry's epoch and the ledger on disk.
    func snapshot(_ app: PatchFixture) async throws -> String {
        let js = try await app.js("[app.greet('x'), app.lib.shout('y'), app.stubborn.value(), app.counter().read(), app.counter().flavour, __hybridModules.epoch, __hybridModules.patchVersion]")
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: app.dataDirectory + "/patch-ledger").sorted()) ?? []
        return "\(js) \(app.ledgerText()) \(kept) \(app.session!.patches.current)"
    }
}
