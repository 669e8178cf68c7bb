import JSON
import PatchProtocol
import Testing

/// A 200 KB module of distinct lines, and the same with one line changed.
func largeModule(changed: Bool = false) -> String {
    var lines: [String] = []
    for i in 0..<4000 {
        lines.append(i == 2000 && changed ? "exports.f\(i) = (x) => x * \(i) + 1; // fixed rounding" : "exports.f\(i) = (x) => x * \(i) + \(i % 7); // line \(i) of the module")
    }
    let text = lines.joined(separator: "\n") + "\n"
    return text
}

@Suite struct PatchDeltaTests {
    @Test func aOneLineChangeInA200KBModuleCostsAFewBytesAndRebuildsExactly() throws {
        let old = Array(largeModule().utf8), new = Array(largeModule(changed: true).utf8)
        #expect(old.count >= 200_000)
        let delta = try PatchDelta.make(from: old, to: new)
        #expect(delta.count <= 2048, "delta \(delta.count) bytes")
        #expect(try PatchDelta.apply(from: old, delta: delta) == new)
    }

    @Test func aDeltaAgainstOtherBytesIsRefused() throws {
        let old = Array(largeModule().utf8), new = Array(largeModule(changed: true).utf8)
        let delta = try PatchDelta.make(from: old, to: new)
        let other = Array("something else entirely".utf8)
        let rebuilt = try? PatchDelta.apply(from: other, delta: delta)
        #expect(rebuilt != new)
        #expect(throws: PatchError.self) { try PatchDelta.apply(from: old, delta: Array("not zstd".utf8)) }
    }

    @Test func emptySourcesRoundTrip() throws {
        #expect(try PatchDelta.apply(from: [], delta: PatchDelta.make(from: [], to: [])) == [])
        let new = Array("exports.a = 1\n".utf8)
        #expect(try PatchDelta.apply(from: [], delta: PatchDelta.make(from: [], to: new)) == new)
    }
}

@Suite struct PatchCohortTests {
    @Test func aRolloutReachesItsShareRaisingOnlyAddsAndPatchesDrawDifferentCohorts() {
        let devices = (0..<100_000).map { "device-\($0)" }
        let tenPercent = Set(devices.filter { PatchCohort.contains(app: "demo", patchVersion: 3, deviceId: $0, percent: 10) })
        let share = Double(tenPercent.count) / Double(devices.count) * 100
        #expect(abs(share - 10) <= 0.5, "share \(share)")
        let twentyFive = Set(devices.filter { PatchCohort.contains(app: "demo", patchVersion: 3, deviceId: $0, percent: 25) })
        #expect(abs(Double(twentyFive.count) / 1000 - 25) <= 0.5)
        #expect(tenPercent.isSubset(of: twentyFive))
        let other = Set(devices.filter { PatchCohort.contains(app: "demo", patchVersion: 4, deviceId: $0, percent: 10) })
        let overlap = Double(tenPercent.intersection(other).count) / Double(tenPercent.count)
        // Independent draws overlap in about 10% of the cohort; the same draw would be 100%.
        #expect(overlap < 0.15, "overlap \(overlap)")
        #expect(devices.allSatisfy { PatchCohort.contains(app: "demo", patchVersion: 3, deviceId: $0, percent: 100) })
        #expect(PatchCohort.bucket(app: "demo", patchVersion: 3, deviceId: "device-1") == PatchCohort.bucket(app: "demo", patchVersion: 3, deviceId: "device-1"))
    }
}

@Suite struct PatchRevocationTests {
    static let privateKey = "nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A="

    @Test func aSignedRevocationVerifiesAndAForgedOrForeignOneIsRefused() throws {
        let revocation = try PatchRevocation.sign(app: "demo", patchVersion: 3, reason: "totals wrong", privateKey: Self.privateKey)
        let reread = try PatchRevocation(json: try JSONParser.parse(JSONWriter.write(revocation.jsonValue)))
        #expect(reread == revocation)
        try reread.verify(app: "demo", keys: [revocation.key])
        var forged = reread
        forged.patchVersion = 4
        #expect(throws: PatchError(.badSignature, "revocation.signature: does not verify over the revocation with the key it names")) {
            try forged.verify(app: "demo", keys: [revocation.key])
        }
        #expect(throws: PatchError.self) { try reread.verify(app: "other", keys: [revocation.key]) }
        #expect(throws: PatchError.self) { try reread.verify(app: "demo", keys: []) }
        let missing = try? PatchRevocation(json: ["kind": "revocation", "app": "demo"])
        #expect(missing == nil)
    }
}

@Suite struct PatchOfferTests {
    @Test func anOfferLeavesUnchangedModulesOutSendsDeltasAndRebuildsToTheSignedPatch() throws {
        let old = largeModule(), new = largeModule(changed: true), same = "exports.x = 1\n"
        let manifest = PatchManifest(app: "demo", patchVersion: 2, baseVersion: "1.0.0",
                                     modules: ["big.js": .init(mode: .amend, sha256: SignedPatch.sha256(new)),
                                               "same.js": .init(mode: .amend, sha256: SignedPatch.sha256(same))])
        let patch = SignedPatch(manifest: manifest, sources: ["big.js": new, "same.js": same], key: "k", signature: "s")
        let offer = PatchOffer.make(patch: patch.jsonValue, deviceModules: ["big.js": SignedPatch.sha256(old), "same.js": SignedPatch.sha256(same)]) { name, sha in
            name == "big.js" && sha == SignedPatch.sha256(old) ? old : nil
        }
        #expect(offer["modules"]?["same.js"]?["unchanged"] == true)
        #expect(offer["modules"]?["big.js"]?["delta"]?["format"] == "zstd-prefix")
        #expect(JSONWriter.write(offer).utf8.count < 3000)
        let rebuilt = try PatchOffer.rebuild(offer) { name in ["big.js": old, "same.js": same][name] }
        #expect(rebuilt == patch)
        #expect(throws: PatchError.self) { try PatchOffer.rebuild(offer) { _ in "other" } }
    }
}
