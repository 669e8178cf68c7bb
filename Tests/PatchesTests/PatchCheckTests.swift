import Foundation
import JSON
import Patches
import Testing

@Suite("patch.check: patches fetched from an HTTP endpoint through the network transport")
struct PatchCheckTests {
    static let main = "globalThis.greet = require('./greet');\n"
    static let greet = "module.hot.accept();\nexports.hello = () => 'hello v0';\n"

    func withEndpoint(grants: [String] = ["patch", "network:127.0.0.1"], _ body: (PatchFixture, PatchEndpoint) async throws -> Void) async throws {
        let endpoint = PatchEndpoint()
        try await endpoint.start()
        let fixture = try PatchFixture(files: ["main.js": Self.main, "greet.js": Self.greet], grants: grants)
        defer { fixture.remove() }
        try await fixture.start()
        try await body(fixture, endpoint)
        fixture.stop()
        await endpoint.stop()
    }

    @Test("nothing newer is upToDate; a served patch is verified, applied and running")
    func applies() async throws {
        try await withEndpoint { fixture, endpoint in
            let none = try await fixture.jsAwait("Hybrid.call('patch', 'check', {url: '\(endpoint.url)'})")
            #expect(none["outcome"] == "upToDate")
            #expect(none["state"] == "shipped")
            #expect(endpoint.headers["x-hybrid-app"] == "patched")
            #expect(endpoint.headers["x-hybrid-patch-version"] == "0")

            endpoint.serve(try fixture.patch(1, ["greet.js": (.amend, "exports.hello = () => 'hello v1';\n")]).text)
            let applied = try await fixture.jsAwait("Hybrid.call('patch', 'check', {url: '\(endpoint.url)'})")
            #expect(applied["outcome"] == "applied")
            #expect(applied["patchVersion"] == 1)
            #expect(applied["state"] == "applied")
            #expect(try await fixture.js("greet.hello()") == "hello v1")

            // The endpoint still offering patch 1 is nothing newer, not a replay error.
            let again = try await fixture.jsAwait("Hybrid.call('patch', 'check', {url: '\(endpoint.url)'})")
            #expect(again["outcome"] == "upToDate")
            #expect(endpoint.headers["x-hybrid-patch-version"] == "1")
        }
    }

    @Test("a patch signed by an unknown key is refused and changes nothing")
    func unknownKey() async throws {
        try await withEndpoint { fixture, endpoint in
            let stranger = PatchSigner.generateKey()
            endpoint.serve(try fixture.patch(1, ["greet.js": (.replace, "module.hot.accept();\nexports.hello = () => 'evil';\n")],
                                             privateKey: stranger.privateKey).text)
            let outcome = try await fixture.jsAwait("Hybrid.call('patch', 'check', {url: '\(endpoint.url)'}).then(() => null, e => ({code: e.code, reason: e.details && e.details.reason}))")
            #expect(outcome == ["code": "E_FAILED", "reason": "unknown_key"])
            #expect(try await fixture.js("greet.hello()") == "hello v0")
        }
    }

    @Test("an endpoint host without a network grant is E_DENIED; an error status is E_FAILED http_status")
    func deniedAndStatus() async throws {
        try await withEndpoint(grants: ["patch"]) { fixture, endpoint in
            let denied = try await fixture.jsAwait("Hybrid.call('patch', 'check', {url: '\(endpoint.url)'}).then(() => null, e => e.code)")
            #expect(denied == "E_DENIED")
        }
        try await withEndpoint { fixture, endpoint in
            endpoint.serve(status: 500, "{}")
            let failed = try await fixture.jsAwait("Hybrid.call('patch', 'check', {url: '\(endpoint.url)'}).then(() => null, e => e.details.reason)")
            #expect(failed == "http_status")
        }
    }
}
