import Bridge
import Foundation
import HostTesting
import JSON
@testable import Networking
import SystemIO
import Testing

/// The transport: bodies decoded whatever their encoding, the HTTP version in the answer, and
/// `app.json` `network.hosts` (pins, trust anchors, addresses ranked by connect time).
@Suite("transport: content encodings, httpVersion, pinned keys, per-host CAs and address lists")
struct HostRoutingTests {
    @Test("gzip, brotli and zstd bodies arrive decoded, through request and fetch", arguments: ["gzip", "br", "zstd"])
    func encodings(encoding: String) async throws {
        let server = try await SharedServer.get()
        let call = try NetworkCall()
        defer { call.remove() }
        let requested = try await call("request", ["url": .string(server.base + "/encoded/\(encoding)")])
        #expect(requested["body"] == .string(TestHTTPServer.encodedText))
        #expect(requested["headers"]?["content-encoding"] == .string(encoding))
        #expect(requested["httpVersion"] == "1.1")
        let fetched = try await call("fetch", ["url": .string(server.base + "/encoded/\(encoding)")])
        var body = fetched["body"]?.bytesValue ?? []
        if let stream = fetched["stream"] {
            while case let chunk = try await call("read", ["stream": stream]), chunk["done"] != true { body += chunk["bytes"]?.bytesValue ?? [] }
        }
        #expect(String(decoding: body, as: UTF8.self) == TestHTTPServer.encodedText)
    }

    /// An HTTPS server (openssl s_server -www) with a certificate from a throwaway CA.
    struct TLSServer {
        let folder = TemporaryFolder(prefix: "pinning")
        let authority: TestCertificateAuthority
        let port: Int
        let process: LiveProcess
        /// The server key's pin, as curl and app.json write it.
        let pin: String

        init() async throws {
            authority = try TestCertificateAuthority(in: folder.path, name: "pinning-ca")
            let issued = try authority.issue(name: "pinned-server", hosts: ["127.0.0.1"])
            let (listener, free) = try RawListener.open()
            close(listener)
            port = free
            process = try LiveProcess("openssl", ["s_server", "-quiet", "-www", "-accept", "127.0.0.1:\(port)", "-cert", issued.certificate, "-key", issued.key])
            let spki = try ChildProcess.run("openssl", ["pkey", "-in", issued.key, "-pubout", "-outform", "der"]).output
            let digest = try ChildProcess.run("openssl", ["dgst", "-sha256", "-binary"], input: spki).output
            pin = "sha256//" + Data(digest).base64EncodedString()
            let port = port
            #expect(try await eventually(within: .seconds(20)) { (try? RawListener.connects(port: port)) == true })
        }
    }

    private func settings(_ host: JSONObject) throws -> AppNetworkSettings {
        try AppNetworkSettings.parse(["hosts": ["127.0.0.1": .object(host)]], source: "app.json: network")
    }

    @Test("a pinned key that matches passes; a wrong one is E_FAILED tls; the host's caFile is what trusts the server")
    func pinning() async throws {
        let server = try await TLSServer()
        defer { server.process.stop() }
        let url = JSONValue.string("https://127.0.0.1:\(server.port)/")
        let wrongPin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        let trusted = try NetworkCall(grants: ["network:127.0.0.1"], network: try settings(["caFile": .string(server.authority.certificate), "pins": [.string(server.pin)]]))
        defer { trusted.remove() }
        let answer = try await trusted("request", ["url": url, "responseType": "text"])
        #expect(answer["status"] == 200)

        let wrong = try NetworkCall(grants: ["network:127.0.0.1"], network: try settings(["caFile": .string(server.authority.certificate), "pins": [.string(wrongPin)]]))
        defer { wrong.remove() }
        let refused = await wrong.failure("request", ["url": url])
        #expect(refused?.details?["reason"] == "tls", "\(String(describing: refused))")

        let untrusted = try NetworkCall(grants: ["network:127.0.0.1"])
        defer { untrusted.remove() }
        #expect(await untrusted.failure("fetch", ["url": url])?.details?["reason"] == "tls")
    }

    @Test("over TLS to an HTTP/2 server (nghttpd), requests are multiplexed: httpVersion 2, for request and fetch")
    func http2() async throws {
        let folder = TemporaryFolder(prefix: "http2")
        let authority = try TestCertificateAuthority(in: folder.path, name: "h2-ca")
        let issued = try authority.issue(name: "h2-server", hosts: ["127.0.0.1"])
        try FileSystem.createDirectories(folder.path + "/docs")
        try FileSystem.write("over h2\n", to: folder.path + "/docs/hello.txt")
        let (listener, port) = try RawListener.open()
        close(listener)
        let server = try LiveProcess("/usr/sbin/nghttpd", ["-a", "127.0.0.1", "-d", folder.path + "/docs", "\(port)", issued.key, issued.certificate])
        defer { server.stop() }
        #expect(try await eventually(within: .seconds(20)) { (try? RawListener.connects(port: port)) == true })
        let call = try NetworkCall(grants: ["network:127.0.0.1"], network: try settings(["caFile": .string(authority.certificate)]))
        defer { call.remove() }
        let url = JSONValue.string("https://127.0.0.1:\(port)/hello.txt")
        let answers = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for index in 0..<8 { group.addTask { try await call(index.isMultiple(of: 2) ? "request" : "fetch", ["url": url]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.allSatisfy { $0["status"] == 200 && $0["httpVersion"] == "2" }, "\(answers.map { $0["httpVersion"] })")
    }

    @Test("a host's addresses are measured once and the one that answers is tried first")
    func addresses() async throws {
        let server = try await SharedServer.get()
        // Nothing listens on 127.0.0.2 at the server's port: it refuses, and goes last.
        #expect(AddressRanking.measure(["127.0.0.2", "127.0.0.1"], port: server.port, timeoutMs: 1000) == ["127.0.0.1", "127.0.0.2"])
        let network = try AppNetworkSettings.parse(["hosts": ["api.ranked.test": ["addresses": ["127.0.0.2", "127.0.0.1"]]]], source: "app.json: network")
        let call = try NetworkCall(grants: ["network:api.ranked.test"], network: network)
        defer { call.remove() }
        let answer = try await call("request", ["url": .string("http://api.ranked.test:\(server.port)/small"), "responseType": "text"])
        #expect(answer["body"] == "ok")
        #expect(AddressRanking.shared.measured(host: "api.ranked.test", addresses: ["127.0.0.2", "127.0.0.1"]) == ["127.0.0.1", "127.0.0.2"])
    }

    @Test("bad hosts entries are refused naming the field")
    func refusals() throws {
        for (entry, field) in [(["pins": ["md5//x"]] as JSONObject, "pins"), (["addresses": ["example.com"]], "addresses"),
                               (["caFile": "/nonexistent.pem"], "caFile"), (["proxy": "x"], "proxy")] {
            #expect {
                try AppNetworkSettings.parse(["hosts": ["api.example.com": .object(entry)]], source: "app.json: network")
            } throws: { error in
                "\(error)".contains("app.json: network.hosts.api.example.com.\(field)")
            }
        }
    }
}
