import Bridge
import CurlTransport
import Foundation
import JSON
import Networking
import Testing

/// Made-up names pinned to the shared server on 127.0.0.1 (curl's `--resolve`): the granted
/// `api.example.test`, and the names an attack would use, so that a request slipping past the
/// grants lands on the server and is counted instead of failing in DNS.
enum PinnedHosts {
    static let granted = "api.example.test"
    static let names = [granted, "evil.test", "api.example.test.evil.test"]

    private static let pinned = Task { () async throws -> TestHTTPServer in
        let server = try await SharedServer.get()
        for name in names { CurlClient.shared.pin(host: name, port: server.port, to: "127.0.0.1") }
        return server
    }

    static func server() async throws -> TestHTTPServer { try await pinned.value }
}

/// `to` as a query value: every character but letters and digits percent-encoded.
func queryValue(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
}

@Suite("grants: no spelling of an ungranted address gets a byte sent to it")
struct GrantBypassTests {
    /// Spellings of the server on 127.0.0.1 (or of another host) that an app granted only
    /// api.example.test must not reach: numeric forms curl normalises, IPv6 loopback, user names
    /// before an `@`, a granted name as a prefix, a trailing dot on an address.
    static let loopback = [
        "127.0.0.1", "localhost", "127.1", "0x7f000001", "2130706433", "0177.0.0.1", "[::1]", "[::ffff:127.0.0.1]",
        "api.example.test@127.0.0.1", "API.EXAMPLE.TEST:pw@127.1", "api.example.test%2e@0x7f.1", "api.example.test.evil.test",
        "127.0.0.1.", "0x7f.1.", "localhost.",
    ]

    @Test("an app granted api.example.test is denied every other spelling, by request and download, before a byte is sent",
          arguments: loopback)
    func direct(spelling: String) async throws {
        let server = try await PinnedHosts.server()
        let call = try NetworkCall(grants: ["network:api.example.test"])
        defer { call.remove() }
        let name = UUID().uuidString
        let url = "http://\(spelling):\(server.port)/count/\(name)"
        for (action, error) in await call.failures(requestAndDownload: ["url": .string(url)]) {
            #expect(error?.code == .denied, "\(action) \(url): \(String(describing: error))")
            #expect(error?.details?["reason"] == "host")
        }
        #expect(server.hits["count/\(name)"] == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: call.dataDirectory).isEmpty)
    }

    @Test("a redirect from the granted host to any of them is denied before that hop", arguments: loopback)
    func redirect(spelling: String) async throws {
        let server = try await PinnedHosts.server()
        let call = try NetworkCall(grants: ["network:api.example.test"])
        defer { call.remove() }
        let name = UUID().uuidString
        let target = "http://\(spelling):\(server.port)/count/\(name)"
        let url = "http://api.example.test:\(server.port)/redirect?name=\(name)&to=\(queryValue(target))"
        for (action, error) in await call.failures(requestAndDownload: ["url": .string(url)]) {
            #expect(error?.code == .denied, "\(action) via \(target): \(String(describing: error))")
        }
        #expect(server.hits["redirect/\(name)"] == 2)
        #expect(server.hits["count/\(name)"] == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: call.dataDirectory).isEmpty)
    }

    @Test("the granted host still answers, however its name is cased or dotted, through redirects, downloads and the cache")
    func grantedHostWorks() async throws {
        let server = try await PinnedHosts.server()
        let call = try NetworkCall(grants: ["network:api.example.test"])
        defer { call.remove() }
        for spelling in ["api.example.test", "API.Example.Test", "api.example.test."] {
            let name = UUID().uuidString
            let result = try await call("request", ["url": .string("http://\(spelling):\(server.port)/count/\(name)")])
            #expect(result["status"] == 200)
            #expect(result["url"] == .string("http://api.example.test:\(server.port)/count/\(name)"))
            #expect(server.hits["count/\(name)"] == 1)
        }
        let base = "http://api.example.test:\(server.port)"
        let name = UUID().uuidString
        #expect(try await call("request", ["url": .string("\(base)/redirect?to=/count/\(name)")])["body"]?["hit"] == 1)
        #expect(try await call("download", ["url": .string("\(base)/bytes?n=1000"), "path": "ok.bin"])["saved"] == true)
        let cached = "\(base)/cached/\(UUID().uuidString)"
        #expect(try await call("request", ["url": .string(cached), "cache": true])["cache"] == "miss")
        #expect(try await call("request", ["url": .string(cached), "cache": true])["cache"] == "hit")
    }

    @Test("an app granted 127.0.0.1 is denied a URL that only mentions it before an @ or after a #")
    func mentionedAddress() async throws {
        let server = try await PinnedHosts.server()
        let call = try NetworkCall(grants: ["network:127.0.0.1"])
        defer { call.remove() }
        let name = UUID().uuidString
        let port = server.port
        let urls = ["http://127.0.0.1@evil.test/", "http://evil.test#@127.0.0.1/",
                    "http://127.0.0.1@evil.test:\(port)/count/\(name)", "http://127.0.0.1:\(port)@evil.test:\(port)/count/\(name)",
                    "http://evil.test:\(port)/count/\(name)#@127.0.0.1:\(port)/", "http://evil.test:\(port)/count/\(name)?@127.0.0.1:\(port)/"]
        for url in urls {
            let error = await call.failure("request", ["url": .string(url)])
            #expect(error?.code == .denied, "\(url): \(String(describing: error))")
            #expect(error?.message.contains("\"evil.test\"") == true)
            let hop = "http://127.0.0.1:\(port)/redirect?name=\(name)&to=\(queryValue(url))"
            #expect(await call.failure("request", ["url": .string(hop)])?.code == .denied, "redirect to \(url)")
        }
        #expect(server.hits["redirect/\(name)"] == urls.count)
        #expect(server.hits["count/\(name)"] == 0)
    }

    @Test("a grant of 127.0.0.1 admits the numeric spellings curl connects to 127.0.0.1, and not ::ffff:127.0.0.1 or localhost")
    func numericSpellings() async throws {
        let server = try await PinnedHosts.server()
        let call = try NetworkCall(grants: ["network:127.0.0.1"])
        defer { call.remove() }
        for spelling in ["127.0.0.1", "127.1", "0x7f000001", "2130706433", "0177.0.0.1", "127.000.000.001", "127.0.0.1.", "0x7f.1."] {
            let name = UUID().uuidString
            let result = try await call("request", ["url": .string("http://\(spelling):\(server.port)/count/\(name)")])
            #expect(result["url"] == .string("http://127.0.0.1:\(server.port)/count/\(name)"), "\(spelling)")
            #expect(server.hits["count/\(name)"] == 1, "\(spelling)")
        }
        for spelling in ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "localhost", "127.0.0.2"] {
            let name = UUID().uuidString
            #expect(await call.failure("request", ["url": .string("http://\(spelling):\(server.port)/count/\(name)")])?.code == .denied, "\(spelling)")
            #expect(server.hits["count/\(name)"] == 0)
        }
    }

    @Test("grants are written in the form hosts are compared in")
    func grantForms() throws {
        let registry = ServiceRegistry([NetworkService()])
        let grants = try Grants.parse(["network:API.Example.Test.", "network:127.1", "network:0x7f000002", "network:[::1]", "network:0:0::2",
                                       "network:[::FFFF:7f00:1]"],
                                      registry: registry, source: "app.json: grants")
        #expect(grants.qualifiers["network"] == ["api.example.test", "127.0.0.1", "127.0.0.2", "::1", "::2", "::ffff:127.0.0.1"])
        #expect(grants.allows(target: "network", qualifier: try URLTarget("http://api.example.test./").host))
        #expect(grants.allows(target: "network", qualifier: try URLTarget("http://[0::1]:8080/").host))
        #expect(!grants.allows(target: "network", qualifier: try URLTarget("http://api.example.test.evil.test/").host))
    }

    @Test("a network grant that names no bare host stops the app at start-up, naming the entry",
          arguments: ["network:api.example.test:8080", "network:user@api.example.test", "network:http://api.example.test/",
                      "network:api example.test", "network:api.example.test/x", "network:[::1]:80", "network:[::1", "network:a\u{0}b"])
    func badGrant(entry: String) {
        do {
            _ = try Grants.parse(["network", entry], registry: ServiceRegistry([NetworkService()]), source: "app.json: grants")
            Issue.record("\(entry) was accepted")
        } catch {
            #expect(error.message.hasPrefix("app.json: grants[1]: \"\(entry)\": "), "\(error.message)")
        }
    }

    /// URL, the host grants compare, and the URL curl is handed.
    static let forms: [(String, String, String)] = [
        ("http://127.1/", "127.0.0.1", "http://127.0.0.1/"),
        ("http://0x7f000001:8080/a", "127.0.0.1", "http://127.0.0.1:8080/a"),
        ("http://2130706433/", "127.0.0.1", "http://127.0.0.1/"),
        ("http://0177.0.0.1/", "127.0.0.1", "http://127.0.0.1/"),
        ("http://127.1./", "127.0.0.1", "http://127.0.0.1/"),
        ("https://API.Example.TEST./x?y=1#z", "api.example.test", "https://api.example.test/x?y=1#z"),
        ("http://api.example.test@127.0.0.1/", "127.0.0.1", "http://api.example.test@127.0.0.1/"),
        ("http://evil.test#@127.0.0.1/", "evil.test", "http://evil.test/#@127.0.0.1/"),
        ("http://[0:0:0:0:0:0:0:1]/", "::1", "http://[::1]/"),
        ("http://[::FFFF:127.0.0.1]/", "::ffff:127.0.0.1", "http://[::FFFF:127.0.0.1]/"),
        ("http://[::ffff:7f00:1]/", "::ffff:127.0.0.1", "http://[::ffff:7f00:1]/"),
        ("http://api.example.test../", "api.example.test.", "http://api.example.test./"),
    ]

    @Test("URLTarget compares the host curl connects to, in one canonical form", arguments: forms)
    func canonicalForms(url: String, host: String, handed: String) throws {
        let target = try URLTarget(url)
        #expect(target.host == host)
        #expect(target.url == handed)
    }

    @Test("a URL curl would read less of, or no host in, is refused", arguments: ["http://api.example.test\u{0}@127.0.0.1/", "http://./", "http://[::1/", "ftp://127.0.0.1/"])
    func refusedURLs(url: String) {
        #expect(throws: TransferError.self) { try URLTarget(url) }
    }
}
