import Foundation
import Glibc
import HostTesting
import HTTPServing
import JSON
import SystemIO
import Testing

/// `hybrid sync-server --tls-cert FILE --tls-key FILE`: HTTPS with a throwaway CA's certificate,
/// checked with curl as a client would, and a renewal read on SIGHUP while a pull is held open.
@Suite("the sync server over HTTPS")
struct HTTPSTests {
    /// curl's exit code for "the peer's certificate cannot be authenticated with known CA certificates".
    static let untrusted: Int32 = 60

    @Test("curl trusting the CA talks to it; curl trusting another does not; SIGHUP serves a renewed certificate without dropping a held pull")
    func servesAndReloads() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-https")
        defer { folder.remove() }
        let first = try TestCertificateAuthority(in: folder.path, name: "first")
        let second = try TestCertificateAuthority(in: folder.path, name: "second")
        let (certificate, key) = (folder.path + "/cert.pem", folder.path + "/key.pem")
        try Self.install(try first.issue(name: "first-server", hosts: ["localhost", "127.0.0.1"]), certificate: certificate, key: key)

        let server = try await LocalSyncServer.startChild(database: folder.path + "/sync.sqlite",
                                                          arguments: ["--tls-cert", certificate, "--tls-key", key])
        defer { server.stopProcess() }
        let base = "https://127.0.0.1:\(server.port)"

        let registered = try await Self.curl(["-X", "POST", "-H", "Content-Type: application/json", "--data", "{}", base + "/v1/devices"],
                                             trusting: first.certificate)
        #expect(registered.status == 0, "\(registered.error)")
        let device = try JSONParser.parse(registered.output)
        let (id, token) = (device["deviceId"]?.stringValue ?? "", device["token"]?.stringValue ?? "")
        #expect(!id.isEmpty && !token.isEmpty, "\(registered.output)")
        #expect(try await Self.curl([base + "/v1/health"], trusting: second.certificate).status == Self.untrusted)
        #expect(try await Self.curl([base.replacingOccurrences(of: "https:", with: "http:") + "/v1/health"], trusting: nil).status != 0,
                "plain HTTP on the HTTPS port")

        // A pull held open (up to a minute), over a connection made with the first certificate.
        guard let curl = Self.curlPath else { throw TestFailure("curl: not found") }
        let held = try LiveProcess(curl, ["-sS", "--cacert", first.certificate, "-H", "Authorization: Bearer \(token)",
                                          "-w", "\n%{http_code}", base + "/v1/pull?deviceId=\(id)&after=0&waitMs=60000"])
        #expect(try await eventually(within: .seconds(60)) {
            try await Self.longPolls(base, trusting: first.certificate) == 1
        })

        try Self.install(try second.issue(name: "second-server", hosts: ["localhost", "127.0.0.1"]), certificate: certificate, key: key)
        kill(server.processIdentifier!, SIGHUP)
        #expect(try await eventually(within: .seconds(60)) { server.standardError.contains("reloaded the TLS certificate \(certificate)") },
                "\(server.standardError)")
        #expect(try await Self.curl([base + "/v1/health"], trusting: second.certificate).status == 0)
        #expect(try await Self.curl([base + "/v1/health"], trusting: first.certificate).status == Self.untrusted)

        // A push over a new connection wakes the held pull, which answers over the connection it had.
        let packet = LocalSyncServer.packet(id, "p1", nil, [LocalSyncServer.insert("op-1", "row-1", ["title": "renewed"], at: 1)])
        let pushed = try await Self.curl(["-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
                                          "--data", JSONWriter.write(packet), base + "/v1/push"], trusting: second.certificate)
        #expect(pushed.status == 0, "\(pushed.error)")
        #expect(await held.wait(timeout: 120) { $0.exitStatus != nil })
        let answer = held.output.standardOutput
        #expect(held.output.exitStatus == 0 && answer.hasSuffix("\n200"), "\(answer) \(held.output.standardError)")
        let ops = try JSONParser.parse(String(answer.dropLast(4)))["ops"]?.arrayValue ?? []
        #expect(ops.compactMap { $0["opId"]?.stringValue } == ["op-1"], "\(answer)")

        // A broken renewal is refused, and the server keeps serving the pair it had.
        try FileSystem.write("not a key\n", to: key)
        kill(server.processIdentifier!, SIGHUP)
        #expect(try await eventually(within: .seconds(60)) {
            server.standardError.contains("kept the TLS certificate it had: the TLS private key \(key): cannot read it as a PEM private key")
        }, "\(server.standardError)")
        #expect(try await Self.curl([base + "/v1/health"], trusting: second.certificate).status == 0)
    }

    @Test("a missing, unreadable or mismatched certificate or key stops the server at start, naming the flag and the file")
    func badFiles() async throws {
        let folder = TemporaryFolder(prefix: "hybrid-https")
        defer { folder.remove() }
        let authority = try TestCertificateAuthority(in: folder.path, name: "ca")
        let one = try authority.issue(name: "one", hosts: ["localhost"]), other = try authority.issue(name: "other", hosts: ["localhost"])
        let garbage = try folder.write("garbage.pem", "not PEM\n")
        let cases: [([String], String)] = [
            (["--tls-cert", one.certificate], "--tls-key: expected the private key of --tls-cert"),
            (["--tls-cert", folder.path + "/missing.pem", "--tls-key", one.key],
             "sync-server: --tls-cert: the TLS certificate \(folder.path)/missing.pem: cannot read it as a PEM certificate chain"),
            (["--tls-cert", one.certificate, "--tls-key", garbage], "sync-server: --tls-key: the TLS private key \(garbage): cannot read it as a PEM private key"),
            (["--tls-cert", one.certificate, "--tls-key", other.key],
             "sync-server: --tls-key: the TLS private key \(other.key): is not the private key of the certificate in \(one.certificate)"),
        ]
        guard let hybrid = BuiltHybrid.path else { throw TestFailure("no hybrid binary beside the tests (swift build first)") }
        for (flags, message) in cases {
            let result = try await DetachedThread.run {
                Result { try ChildProcess.run(hybrid, ["sync-server", "--port", "0", "--insecure-no-auth", "--db", folder.path + "/s.sqlite"] + flags) }
            }.get()
            let errorText = String(decoding: result.errorOutput, as: UTF8.self)
            #expect(result.status != 0 && errorText.contains(message), "\(flags): \(errorText)")
        }
    }

    @Test("ServerCertificate.reload keeps the pair it had when the new files do not match")
    func reloadKeepsOldPair() throws {
        let folder = TemporaryFolder(prefix: "hybrid-https")
        defer { folder.remove() }
        let authority = try TestCertificateAuthority(in: folder.path, name: "ca")
        let (certificate, key) = (folder.path + "/cert.pem", folder.path + "/key.pem")
        try Self.install(try authority.issue(name: "one", hosts: ["localhost"]), certificate: certificate, key: key)
        let served = try ServerCertificate(certificateFile: certificate, keyFile: key)
        let before = served.notValidAfter
        try FileSystem.write(try FileSystem.text(atPath: try authority.issue(name: "two", hosts: ["localhost"]).certificate), to: certificate)
        #expect(throws: ServerCertificateError.self) { try served.reload() }
        #expect(served.notValidAfter == before)
    }

    // MARK: Helpers

    static let curlPath: String? = ["/usr/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Copies an issued pair over the files the server reads, each by a rename, as certbot does.
    static func install(_ issued: TestCertificateAuthority.Issued, certificate: String, key: String) throws {
        for (from, to) in [(issued.certificate, certificate), (issued.key, key)] {
            try FileSystem.write(try FileSystem.text(atPath: from), to: to + ".new")
            guard rename(to + ".new", to) == 0 else { throw TestFailure("rename \(to): errno \(errno)") }
        }
    }

    /// curl's exit status, body and error text for `arguments`, trusting only `authority` (nil:
    /// curl's defaults), on a thread of its own.
    static func curl(_ arguments: [String], trusting authority: String?) async throws -> (status: Int32, output: String, error: String) {
        guard let curl = curlPath else { throw TestFailure("curl: not found (scripts/install-deps installs it)") }
        let flags = ["-sS", "--max-time", "60"] + (authority.map { ["--cacert", $0] } ?? [])
        let result = try await DetachedThread.run { Result { try ChildProcess.run(curl, flags + arguments) } }.get()
        return (result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.errorOutput, as: UTF8.self))
    }

    /// The server's `hybrid_sync_long_polls` gauge.
    static func longPolls(_ base: String, trusting authority: String) async throws -> Double {
        let metrics = try await curl([base + "/v1/metrics"], trusting: authority)
        return try MetricsText(metrics.output)["hybrid_sync_long_polls"]
    }
}
