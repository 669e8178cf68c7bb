import CurlTransport
import Foundation
import HostTesting
import JSON
import PatchProtocol
import PatchServer
import Testing

/// The patch server's answers compressed when a device or a publisher asks (`Accept-Encoding`),
/// read by python3's zlib and by libcurl, the transport of the host's patch client.
@Suite(.serialized) struct PatchServerCompressionTests {
    /// Two of the repository's own runtime modules (some 9 KB each), as a patch's sources: what a
    /// typical business module weighs.
    static func modules() throws -> [String: String] {
        try ["api.js": String(contentsOfFile: Repository.path("js/runtime/api.js"), encoding: .utf8),
             "kv.js": String(contentsOfFile: Repository.path("js/runtime/kv.js"), encoding: .utf8)]
    }

    /// A server with the patch published at 100%.
    static func published(_ store: TestStore) async throws -> PatchServerHarness {
        let harness = try await PatchServerHarness(store)
        try await harness.addApp()
        let published = try await harness.publish(try PatchServerHarness.patch(version: 1, modules: modules()))
        guard published.status == 201 else { throw TestFailure("publish: \(published)") }
        return harness
    }

    @Test("a check asked for in gzip comes back gzip-encoded and decodes to exactly the plain answer; identity, no header and q=0 get the plain one", arguments: TestStore.allCases)
    func checkIsCompressedWhenAsked(store: TestStore) async throws {
        let harness = try await Self.published(store)
        defer { Task { await harness.stop() } }
        let plain = try await harness.check("device-1")
        #expect(plain.status == 200)
        #expect(plain.body["patch"]?["patchVersion"] == 1, "\(plain)")
        #expect(plain.headers[.contentEncoding] == nil)
        #expect(plain.headers[.vary] == "Accept-Encoding")
        let gzip = try await harness.check("device-1", acceptEncoding: "gzip")
        #expect(gzip.status == 200)
        #expect(gzip.headers[.contentEncoding] == "gzip")
        #expect(gzip.headers[.contentLength] == String(gzip.raw.count))
        #expect(try ContentCoding.decode(gzip.raw, coding: "gzip") == plain.raw)
        #expect(gzip.raw.count * 2 < plain.raw.count, "gzip \(gzip.raw.count) of \(plain.raw.count) bytes")
        for field in ["identity", "gzip;q=0", "gzip;q=0, deflate;q=0"] {
            let reply = try await harness.check("device-1", acceptEncoding: field)
            #expect(reply.headers[.contentEncoding] == nil, "\(field)")
            #expect(reply.raw == plain.raw, "\(field)")
        }
        let deflate = try await harness.check("device-1", acceptEncoding: "gzip;q=0.2, deflate")
        #expect(deflate.headers[.contentEncoding] == "deflate")
        #expect(try ContentCoding.decode(deflate.raw, coding: "deflate") == plain.raw)
    }

    @Test("small answers (health, a report's vote, a check with nothing to offer) are sent as they are", arguments: TestStore.allCases)
    func smallAnswersAreNotCompressed(store: TestStore) async throws {
        let harness = try await Self.published(store)
        defer { Task { await harness.stop() } }
        let health = try await harness.request(.get, "/v1/health", token: nil, acceptEncoding: "gzip")
        let report = try await harness.request(.post, "/v1/apps/demo/reports", token: PatchServerHarness.token(sub: "device-1", scopes: ["device:demo"]),
                                               body: PatchReport(patchVersion: 1, event: .downloaded, reason: nil).jsonValue, acceptEncoding: "gzip")
        let nothing = try await harness.check("device-1", highest: 1, acceptEncoding: "gzip")
        for reply in [health, report, nothing] {
            #expect(reply.status == 200, "\(reply)")
            #expect(reply.headers[.contentEncoding] == nil, "\(reply)")
            #expect(reply.headers[.vary] == nil, "\(reply)")
        }
        #expect(nothing.body["patch"] == .null)
    }

    /// libcurl's `CURLOPT_ACCEPT_ENCODING ""`, set on every transfer, asks for every coding it
    /// decodes and decodes the answer itself: the host's patch client gets the smaller answer with
    /// no change of its own. Prints the bytes on the wire (BENCHMARKS.md, "The patch server").
    @Test("the patch client's transport (libcurl) asks for gzip and reads the compressed check as the plain one", arguments: TestStore.allCases)
    func curlReadsTheCompressedCheck(store: TestStore) async throws {
        let harness = try await Self.published(store)
        defer { Task { await harness.stop() } }
        let plain = try await harness.check("device-1")
        let check = PatchCheck(baseVersion: "1.0.0", channel: "production", deviceId: "device-1", highestVersion: 0, modules: [:])
        let request = TransferRequest(url: "http://127.0.0.1:\(harness.port)/v1/apps/demo/check", method: "POST",
                                      headers: [("Content-Type", "application/json"), ("Accept", "application/json")], body: JSONWriter.bytes(check.jsonValue))
        let response = try await CurlClient.shared.perform(request)
        #expect(response.status == 200)
        #expect(response.header("content-encoding") == "gzip")
        let wire = try #require(response.header("content-length").flatMap(Int.init))
        #expect(response.body == plain.raw)
        #expect(wire * 2 < response.body.count)
        // The publisher's status of ten patches, as `hybrid patch-server status` reads it.
        for version in 2...10 {
            _ = try await harness.publish(try PatchServerHarness.patch(version: version, modules: ["api.js": "exports.v = \(version)\n"]))
        }
        let status = try await harness.request(.get, "/v1/apps/demo/status", token: harness.publisher)
        let compressedStatus = try await harness.request(.get, "/v1/apps/demo/status", token: harness.publisher, acceptEncoding: "gzip, deflate")
        #expect(compressedStatus.headers[.contentEncoding] == "gzip")
        #expect(try ContentCoding.decode(compressedStatus.raw, coding: "gzip") == status.raw)
        print("patch server on the wire: a check offering two 9 KB modules \(plain.raw.count) bytes, gzip \(wire) (\(Self.ratio(wire, plain.raw.count))); "
            + "the status of 10 patches \(status.raw.count) bytes, gzip \(compressedStatus.raw.count) (\(Self.ratio(compressedStatus.raw.count, status.raw.count)))")
    }

    static func ratio(_ compressed: Int, _ plain: Int) -> String {
        "\(Int((Double(compressed) / Double(plain) * 100).rounded()))%"
    }
}
