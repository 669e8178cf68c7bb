import JSON
import PatchProtocol
import Patches
import Testing

@Suite("Patch format")
struct PatchFormatTests {
    @Test("the signature covers the canonical manifest: keys sorted by UTF-16 code units, no whitespace, no sources")
    func canonicalManifest() {
        let manifest = PatchManifest(app: "tasks", patchVersion: 7, baseVersion: "1.2.0", expires: "2027-01-31T00:00:00Z",
                                     modules: ["lib/z.js": .init(mode: .replace, sha256: "bb"), "a.js": .init(mode: .amend, sha256: "aa")])
        let text = String(decoding: manifest.canonicalBytes, as: UTF8.self)
        #expect(text == #"{"app":"tasks","baseVersion":"1.2.0","expires":"2027-01-31T00:00:00Z","modules":{"a.js":{"mode":"amend","sha256":"aa"},"lib/z.js":{"mode":"replace","sha256":"bb"}},"patchVersion":7}"#)
    }

    @Test("a signed patch written and read back verifies; its module hashes are SHA-256 of the source's UTF-8")
    func roundTrip() throws {
        let key = PatchSigner.generateKey()
        let unsigned: JSONValue = ["app": "tasks", "patchVersion": 1, "baseVersion": "1.0.0",
                                   "modules": ["a.js": ["mode": "amend", "source": "exports.f = () => '世界';"]]]
        let signed = try PatchSigner.sign(unsigned, privateKey: key.privateKey)
        let read = try SignedPatch.parse(signed.text)
        #expect(read == signed)
        #expect(read.key == key.publicKey)
        #expect(SignedPatch.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try PatchSigner.publicKey(of: key.privateKey) == key.publicKey)
    }

    @Test("expiry times are ISO 8601 UTC")
    func expiry() {
        #expect(PatchClock.parse("1970-01-01T00:01:00Z") == 60)
        #expect(PatchClock.parse("2027-01-31T00:00:00.5Z") == PatchClock.parse("2027-01-31T00:00:00Z")! + 0.5)
        #expect(PatchClock.parse("2027-01-31") == nil)
        #expect(PatchClock.parse("2027-01-31T00:00:00+01:00") == nil)
        #expect(PatchClock.format(60) == "1970-01-01T00:01:00Z")
    }

    /// Found while writing the patch harness of `make fuzz` (the fuzzer had not reached it in
    /// 150 s, about 380,000 inputs, before it was fixed): a fraction of 19 digits or more overflowed
    /// while being read, so a patch file whose `expires` carried one stopped the app that read it
    /// (the drop folder, `patch.check`), before its signature was looked at.
    @Test("a fraction of seconds of any length reads without overflowing; an empty one is refused")
    func longFraction() throws {
        let base = try #require(PatchClock.parse("2027-01-31T00:00:00Z"))
        let long = try #require(PatchClock.parse("2027-01-31T00:00:00.99999999999999999999Z"))
        #expect(abs(long - (base + 0.999_999_999)) < 1e-6)
        #expect(PatchClock.parse("2027-01-31T00:00:00." + String(repeating: "7", count: 400) + "Z") != nil)
        #expect(PatchClock.parse("2027-01-31T00:00:00.Z") == nil)
        #expect(PatchClock.parse("2027-01-31T00:00:00.12a4Z") == nil)
        let text = #"{"app": "demo", "patchVersion": 2, "baseVersion": "1.0.0", "expires": "2027-01-31T00:00:00.12345678901234567890Z", "#
            + #""modules": {"report.js": {"mode": "amend", "sha256": "00", "source": ""}}, "key": "k", "signature": "s"}"#
        #expect(try SignedPatch.parse(text).manifest.expires == "2027-01-31T00:00:00.12345678901234567890Z")
    }
}
