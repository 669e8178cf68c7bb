import Bridge
import CurlTransport
import Foundation
import HostTesting
import JSON
@testable import Networking
import SystemIO
import Testing

/// `sign` on requests: HTTP Message Signatures (RFC 9421) made with keys only native code reads,
/// checked by PyPI's http-message-signatures in a server of its own (Fixtures/verify-signatures.py).
@Suite("request signing: RFC 9421 signatures an independent verifier accepts")
struct RequestSigningTests {
    /// The keys, written afresh: an HMAC key, and an Ed25519 key pair made by openssl.
    struct Keys {
        let folder = TemporaryFolder(prefix: "signing-keys")
        var hmac: String { folder.path + "/hmac.key" }
        var ed25519: String { folder.path + "/ed25519.pem" }
        var ed25519Public: String { folder.path + "/ed25519.pub.pem" }

        init() throws {
            try FileSystem.write(String(decoding: (0..<32).map { _ in UInt8.random(in: 0x21...0x7e) }, as: UTF8.self), to: hmac)
            #expect(try ChildProcess.run("openssl", ["genpkey", "-algorithm", "ed25519", "-out", ed25519]).status == 0)
            #expect(try ChildProcess.run("openssl", ["pkey", "-in", ed25519, "-pubout", "-out", ed25519Public]).status == 0)
        }

        func settings(components: [String]? = nil) throws -> AppNetworkSettings {
            var signer: JSONObject = ["algorithm": "ed25519", "keyFile": .string(ed25519), "keyId": "edkey"]
            if let components { signer["components"] = .array(components.map(JSONValue.string)) }
            return try AppNetworkSettings.parse(["signers": ["api": .object(signer),
                                                             "shared": ["algorithm": "hmac-sha256", "keyFile": .string(hmac), "keyId": "hmac"]]],
                                                source: "app.json: network")
        }
    }

    /// The verifier's server, until the test ends.
    private func withVerifier(_ keys: Keys, _ body: (String) async throws -> Void) async throws {
        let script = Repository.path("Tests/NetworkingTests/Fixtures/verify-signatures.py")
        let server = try SpawnedProcess("python3", [script, keys.hmac, keys.ed25519Public], input: .pipe, output: .pipe, error: .inherit)
        defer {
            server.closeInput()
            _ = server.waitForExit()
        }
        let base = try #require(server.readOutputLine(), "the verifier did not start (is http-message-signatures installed? scripts/install-deps installs it)")
        try await body(base)
    }

    private func verdict(_ answer: JSONValue) throws -> JSONValue {
        try JSONParser.parse(answer["body"]?.bytesValue ?? Array((answer["body"]?.stringValue ?? "").utf8))
    }

    @Test("Ed25519 over method, target URI, a named header and the body's Content-Digest; HMAC-SHA256 on a GET")
    func verifies() async throws {
        let keys = try Keys()
        let call = try NetworkCall(grants: ["network:127.0.0.1"], network: try keys.settings(components: ["@method", "@target-uri", "x-app"]))
        defer { call.remove() }
        try await withVerifier(keys) { base in
            let posted = try await call("request", ["url": .string(base + "/orders?id=7"), "method": "POST", "json": ["total": 12],
                                                    "headers": ["X-App": "shop"], "sign": "api", "responseType": "text"])
            let result = try verdict(posted)
            #expect(posted["status"] == 200, "\(result)")
            #expect(result["covered"] == ["@method", "@target-uri", "x-app", "content-digest"])
            #expect(result["digest"] == true && result["keyid"] == "ed25519")

            let fetched = try await call("fetch", ["url": .string(base + "/profile"), "sign": "shared"])
            var body = fetched["body"]?.bytesValue ?? []
            if let stream = fetched["stream"] {
                while case let chunk = try await call("read", ["stream": stream]), chunk["done"] != true { body += chunk["bytes"]?.bytesValue ?? [] }
            }
            let fetchedVerdict = try JSONParser.parse(body)
            #expect(fetched["status"] == 200, "\(fetchedVerdict)")
            #expect(fetchedVerdict["covered"] == ["@method", "@target-uri"])
        }
    }

    @Test("the derived components (authority, scheme, path, query, request target) are what the verifier derives")
    func derivedComponents() async throws {
        let keys = try Keys()
        let components = ["@method", "@authority", "@scheme", "@path", "@query", "@request-target"]
        let call = try NetworkCall(grants: ["network:127.0.0.1"], network: try keys.settings(components: components))
        defer { call.remove() }
        try await withVerifier(keys) { base in
            let answer = try await call("request", ["url": .string(base + "/orders/7?x=1&y=a%20b#part"), "sign": "api", "responseType": "text"])
            let result = try verdict(answer)
            #expect(answer["status"] == 200, "\(result)")
            #expect(result["covered"] == .array(components.map(JSONValue.string)))
        }
    }

    @Test("a tampered body fails the independent check: the verifier is not a rubber stamp")
    func tamperedFails() async throws {
        let keys = try Keys()
        let settings = try keys.settings()
        let call = try NetworkCall(grants: ["network:127.0.0.1"], network: settings)
        defer { call.remove() }
        try await withVerifier(keys) { base in
            // The signature of one body sent with another: signed headers taken from a real call.
            var request = TransferRequest(url: base + "/orders", method: "POST", body: Array("{\"total\":12}".utf8))
            let app = AppContext(name: "t", version: "1", dataDirectory: call.dataDirectory, grants: call.grants, network: settings)
            let headers = try RequestSigner("api", app: app).headers(for: request)
            request.headers += headers
            request.body = Array("{\"total\":99}".utf8)
            let response = try await CurlClient.shared.perform(request)
            #expect(response.status == 401, "\(String(decoding: response.body, as: UTF8.self))")
        }
    }

    @Test("an unknown signer, a bad key file and a missing signed header are refused by name")
    func refusals() async throws {
        let keys = try Keys()
        let call = try NetworkCall(grants: ["network:127.0.0.1"], network: try keys.settings(components: ["@method", "x-app"]))
        defer { call.remove() }
        let unknown = await call.failure("request", ["url": "http://127.0.0.1:9/", "sign": "nope"])
        #expect(unknown?.path == "/sign" && unknown?.message.contains("it declares api, shared") == true, "\(String(describing: unknown))")
        let missing = await call.failure("request", ["url": "http://127.0.0.1:9/", "sign": "api"])
        #expect(missing?.path == "/headers" && missing?.message.contains("x-app") == true, "\(String(describing: missing))")
        #expect(throws: QuotaError.self) {
            try AppNetworkSettings.parse(["signers": ["api": ["algorithm": "rsa", "keyFile": .string(keys.hmac)]]], source: "app.json: network")
        }
        #expect(throws: QuotaError.self) {
            try AppNetworkSettings.parse(["signers": ["api": ["algorithm": "ed25519", "keyFile": "/nonexistent.pem"]]], source: "app.json: network")
        }
    }
}
