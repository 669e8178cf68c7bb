import HostTesting
import JSON
import PatchProtocol
import PatchServer
import Testing

@Suite(.serialized) struct PatchServerTests {
    @Test(arguments: TestStore.allCases) func publishIsRefusedForABadSignatureAnotherAppOrAnUnknownKeyNamingTheField(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store)
        defer { Task { await harness.stop() } }
        try await harness.addApp()
        try await harness.addApp("other")
        var forged = try PatchServerHarness.patch(version: 1, modules: ["report.js": "exports.a = 1\n"])
        forged.manifest.patchVersion = 2
        let bad = try await harness.publish(forged)
        #expect(bad.status == 422)
        #expect(bad.body["error"]?["message"]?.stringValue?.contains("signature:") == true, "\(bad)")
        let otherApp = try await harness.publish(try PatchServerHarness.patch(app: "other", version: 1, modules: ["a.js": "1"]))
        #expect(otherApp.status == 422)
        #expect(otherApp.body["error"]?["message"]?.stringValue?.contains("patch.app") == true, "\(otherApp)")
        let stranger = try await harness.publish(try PatchServerHarness.patch(version: 1, modules: ["a.js": "1"], key: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="))
        #expect(stranger.status == 422)
        #expect(stranger.body["error"]?["message"]?.stringValue?.contains("key:") == true, "\(stranger)")
        let good = try await harness.publish(try PatchServerHarness.patch(version: 1, modules: ["a.js": "1"]))
        #expect(good.status == 201, "\(good)")
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 1, modules: ["a.js": "2"])).status == 409)
        let noScope = try await harness.request(.post, "/v1/apps/demo/patches/1/halt", token: PatchServerHarness.token(sub: "bob", scopes: ["publish:other"]), body: [:])
        #expect(noScope.status == 403)
        #expect(try await harness.request(.get, "/v1/apps/demo/status", token: nil).status == 401)
        let audit = try await harness.request(.get, "/v1/apps/demo/audit", token: harness.publisher)
        #expect(audit.body["entries"]?.arrayValue?.map { $0["action"]?.stringValue ?? "" } == ["keys", "publish"])
    }

    @Test(arguments: TestStore.allCases) func aPatchRolledBackByManyIsHaltedOnceTheBoundPassesAndOfferedToNoOneAfter(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store)
        defer { Task { await harness.stop() } }
        try await harness.addApp()
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 1, modules: ["a.js": "exports.a = 2\n"])).status == 201)
        var haltedAfter: Int?
        for index in 0..<200 {
            let device = "device-\(index)"
            let offer = try await harness.check(device)
            if haltedAfter == nil {
                #expect(offer.body["patch"]?["patchVersion"] == 1, "\(offer)")
            } else {
                #expect(offer.body["patch"] == .null, "offered after the halt: \(offer)")
                continue
            }
            #expect(try await harness.report(device, version: 1, .downloaded).status == 200)
            #expect(try await harness.report(device, version: 1, .applied).status == 200)
            // A third of the devices roll the patch back.
            if index % 3 == 0 {
                #expect(try await harness.report(device, version: 1, .rolledBack, reason: "threw: TypeError").body["counted"] == true)
                #expect(try await harness.report(device, version: 1, .rolledBack, reason: "again").body["counted"] == false)
            } else {
                #expect(try await harness.report(device, version: 1, .confirmed).status == 200)
            }
            let status = try await harness.request(.get, "/v1/apps/demo/status", token: harness.publisher)
            if status.body["patches"]?[0]?["state"] == "halted" { haltedAfter = index + 1 }
        }
        let after = try #require(haltedAfter)
        // 20 applied are needed; the bound passes 2% soon after.
        #expect(after >= 20 && after <= 30, "halted after \(after) devices")
        let status = try await harness.request(.get, "/v1/apps/demo/status", token: harness.publisher)
        let patch = try #require(status.body["patches"]?[0])
        #expect(patch["haltedBy"] == "server")
        #expect(patch["funnel"]?["offered"]?.intValue == after)
        #expect(patch["funnel"]?["reasons"]?["threw: TypeError"]?.intValue == patch["funnel"]?["rolledBack"]?.intValue)
        let audit = try await harness.request(.get, "/v1/apps/demo/audit", token: harness.publisher)
        let halt = try #require(audit.body["entries"]?.arrayValue?.last)
        #expect(halt["subject"] == "server" && halt["action"] == "halt")
        #expect(halt["details"]?.stringValue?.contains("Wilson") == true, "\(halt)")
        // A confirmation without an application counts nothing.
        #expect(try await harness.report("stranger", version: 1, .confirmed).body["counted"] == false)
    }

    @Test(arguments: TestStore.allCases) func aRevocationIsRefusedWhenForgedOrForAnotherAppAndServedToDevices(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store)
        defer { Task { await harness.stop() } }
        try await harness.addApp()
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 3, modules: ["a.js": "x"])).status == 201)
        let revocation = try PatchRevocation.sign(app: "demo", patchVersion: 3, reason: "totals wrong", privateKey: PatchServerHarness.patchKey)
        var forged = revocation
        forged.reason = "something else"
        let refused = try await harness.request(.post, "/v1/apps/demo/patches/3/revoke", token: harness.publisher, body: ["revocation": forged.jsonValue])
        #expect(refused.status == 422 && refused.body["error"]?["message"]?.stringValue?.contains("revocation.signature") == true, "\(refused)")
        let foreign = try PatchRevocation.sign(app: "other", patchVersion: 3, reason: "x", privateKey: PatchServerHarness.patchKey)
        let wrongApp = try await harness.request(.post, "/v1/apps/demo/patches/3/revoke", token: harness.publisher, body: ["revocation": foreign.jsonValue])
        #expect(wrongApp.status == 422 && wrongApp.body["error"]?["message"]?.stringValue?.contains("revocation.app") == true, "\(wrongApp)")
        #expect(try await harness.check("d1").body["revocations"]?.arrayValue?.isEmpty == true)
        let accepted = try await harness.request(.post, "/v1/apps/demo/patches/3/revoke", token: harness.publisher, body: ["revocation": revocation.jsonValue])
        #expect(accepted.status == 200 && accepted.body["state"] == "revoked", "\(accepted)")
        let check = try await harness.check("d1")
        #expect(check.body["patch"] == .null)
        let served = try PatchRevocation(json: try #require(check.body["revocations"]?[0]))
        try served.verify(app: "demo", keys: [PatchServerHarness.publicKey])
    }

    @Test(arguments: TestStore.allCases) func aOneLineChangeInA200KBModuleDownloadsAsADeltaOfAtMost2KB(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store)
        defer { Task { await harness.stop() } }
        try await harness.addApp()
        var lines = (0..<4000).map { "exports.f\($0) = (x) => x * \($0) + \($0 % 7); // line \($0) of the module" }
        let old = lines.joined(separator: "\n") + "\n"
        lines[2000] = "exports.f2000 = (x) => x * 2000 + 1; // fixed"
        let new = lines.joined(separator: "\n") + "\n"
        #expect(old.utf8.count >= 200_000)
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 1, modules: ["big.js": old, "small.js": "exports.s = 1\n"])).status == 201)
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 2, modules: ["big.js": new, "small.js": "exports.s = 1\n"])).status == 201)
        let running = ["big.js": SignedPatch.sha256(old), "small.js": SignedPatch.sha256("exports.s = 1\n")]
        let reply = try await harness.check("device-1", highest: 1, modules: running)
        #expect(reply.bytes <= 2048, "the answer is \(reply.bytes) bytes")
        let offer = try #require(reply.body["patch"])
        #expect(offer["patchVersion"] == 2)
        let rebuilt = try PatchOffer.rebuild(offer) { ["big.js": old, "small.js": "exports.s = 1\n"][$0] }
        try PatchVerifier.verifySignature(rebuilt, keys: [PatchServerHarness.publicKey], keysName: "the test's key")
        #expect(rebuilt.sources["big.js"] == new)
        // A device without the old source gets it whole.
        let whole = try await harness.check("device-2", highest: 1)
        #expect(whole.bytes > 200_000)
    }

    @Test(arguments: TestStore.allCases) func rolloutOffersTheShareAndRaisingItKeepsEveryDeviceIn(store: TestStore) async throws {
        let harness = try await PatchServerHarness(store)
        defer { Task { await harness.stop() } }
        try await harness.addApp()
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 1, modules: ["a.js": "1"]), rollout: 10).status == 201)
        var offered: Set<String> = []
        for index in 0..<300 {
            if try await harness.check("d\(index)").body["patch"] != .null { offered.insert("d\(index)") }
        }
        let expected = (0..<300).filter { PatchCohort.contains(app: "demo", patchVersion: 1, deviceId: "d\($0)", percent: 10) }.map { "d\($0)" }
        #expect(offered == Set(expected))
        #expect(try await harness.request(.post, "/v1/apps/demo/patches/1/rollout", token: harness.publisher, body: ["percent": 50]).status == 200)
        var raised: Set<String> = []
        for index in 0..<300 {
            if try await harness.check("d\(index)").body["patch"] != .null { raised.insert("d\(index)") }
        }
        #expect(offered.isSubset(of: raised) && raised.count > offered.count)
        let bad = try await harness.request(.post, "/v1/apps/demo/patches/1/rollout", token: harness.publisher, body: ["percent": 150])
        #expect(bad.status == 400 && bad.body["error"]?["message"]?.stringValue?.hasPrefix("percent:") == true, "\(bad)")
    }
}
