import HostTesting
import Hummingbird
import JSON
import PatchProtocol
import SystemIO
import Testing

/// `hybrid patch-server serve --db postgres://...` as an operator runs it: two processes over one
/// database, and a URL that says something wrong refused before anything starts.
@Suite("hybrid patch-server --db postgres://")
struct PatchServerCommandTests {
    /// A `hybrid patch-server` child without tokens on a free port of 127.0.0.1, once it says it listens.
    static func serve(_ hybrid: String, database: String) async throws -> (child: LiveProcess, port: Int) {
        let child = try LiveProcess(hybrid, ["patch-server", "serve", "--port", "0", "--insecure-no-auth", "--db", database])
        let prefix = "patch-server listening on http://127.0.0.1:"
        guard await child.wait(timeout: 120, until: { $0.standardOutput.contains(prefix) || $0.exitStatus != nil }),
              let line = child.output.standardOutput.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
              let port = Int(line.dropFirst(prefix.count).prefix { $0.isNumber }) else {
            child.stop()
            throw TestFailure("hybrid patch-server did not start: \(child.output.standardError)")
        }
        return (child, port)
    }

    @Test("two hybrid patch-server processes over one PostgreSQL database: a patch published through one is offered by the other, and halted through the other is offered by neither")
    func twoProcesses() async throws {
        let hybrid = try #require(BuiltHybrid.path, "no hybrid binary beside the tests (swift build first)")
        let database = try await PostgresTestDatabase.create()
        defer { Task { await database.drop() } }
        let (first, a) = try await Self.serve(hybrid, database: database.url)
        defer { first.stop() }
        let (second, b) = try await Self.serve(hybrid, database: database.url)
        defer { second.stop() }
        let json: HTTPFields = [.contentType: "application/json"]
        func send(_ port: Int, _ method: HTTPRequest.Method, _ uri: String, _ body: JSONValue) async throws -> Reply {
            try await PatchServerHarness.request(port: port, method, uri, headers: json, body: JSONWriter.write(body))
        }
        #expect(try await send(a, .put, "/v1/apps/demo", ["keys": [.string(PatchServerHarness.publicKey)]]).status == 200)
        let patch = try PatchServerHarness.patch(version: 1, modules: ["a.js": "exports.a = 2\n"])
        let published = try await send(a, .post, "/v1/apps/demo/patches", ["patch": patch.jsonValue, "channel": "production"])
        #expect(published.status == 201, "\(published)")
        let check = PatchCheck(baseVersion: "1.0.0", channel: "production", deviceId: "device-1", highestVersion: 0, modules: [:]).jsonValue
        let offered = try await send(b, .post, "/v1/apps/demo/check", check)
        #expect(offered.body["patch"]?["patchVersion"] == 1, "\(offered)")
        #expect(try await send(b, .post, "/v1/apps/demo/patches/1/halt", [:]).status == 200)
        for port in [a, b] {
            let after = try await send(port, .post, "/v1/apps/demo/check", check)
            #expect(after.status == 200 && after.body["patch"] == .null, "\(after)")
        }
        let health = try await PatchServerHarness.request(port: b, .get, "/v1/health", body: nil)
        #expect(health.status == 200)
    }

    @Test("a postgres:// --db that says something wrong is refused naming the parameter; an unreachable one names the database without its password")
    func badURLs() async throws {
        let hybrid = try #require(BuiltHybrid.path, "no hybrid binary beside the tests (swift build first)")
        let cases = [
            ("postgres://patches@db/patches?sslmode=on", "--db: sslmode: expected disable, allow, prefer, require, verify-ca or verify-full, got on"),
            ("postgres://patches@db/patches?sslcert=/c.pem", "--db: sslcert: not a parameter this server honours in a postgres:// URL"),
            ("postgres://patches:secret-password@127.0.0.1:1/patches?sslmode=disable", "--db: cannot connect to postgres://patches@127.0.0.1:1/patches?sslmode=disable"),
        ]
        for (url, message) in cases {
            let result = try await DetachedThread.run {
                Result { try ChildProcess.run(hybrid, ["patch-server", "serve", "--port", "0", "--insecure-no-auth", "--db", url]) }
            }.get()
            let errors = String(decoding: result.errorOutput, as: UTF8.self)
            #expect(result.status != 0 && errors.contains(message) && !errors.contains("secret-password"), "\(url): \(errors)")
        }
    }
}
