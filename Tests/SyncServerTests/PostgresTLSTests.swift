import Foundation
import HostTesting
import Logging
import PostgresNIO
import PostgresStores
import SyncProtocol
import SystemIO
@testable import SyncServer
import Testing

/// `sslmode` and `sslrootcert` in a `--db` URL, as libpq reads them, against scripts/with-postgres's
/// cluster: ssl=on, its certificate naming localhost and 127.0.0.1 (not 127.0.0.2, where it also
/// listens) and signed by the CA in `HYBRID_TEST_POSTGRES_CA`.
@Suite("PostgreSQL over TLS")
struct PostgresTLSTests {
    @Test("the URL's sslmode and sslrootcert are read; PGSSLMODE and PGSSLROOTCERT stand in for them; prefer is the default")
    func parsing() throws {
        let plain = try PostgresAddress(url: "postgres://sync@db:5432/sync", environment: [:])
        #expect(plain.tls == PostgresTLS(mode: .prefer, rootCertificate: nil))
        let full = try PostgresAddress(url: "postgres://sync@db/sync?sslmode=verify-full&sslrootcert=/etc/ca.pem", environment: [:])
        #expect(full.tls == PostgresTLS(mode: .verifyFull, rootCertificate: "/etc/ca.pem"))
        #expect(full.description == "postgres://sync@db:5432/sync?sslmode=verify-full")
        let environment = ["PGSSLMODE": "require", "PGSSLROOTCERT": "system"]
        #expect(try PostgresAddress(url: "postgres://sync@db/sync", environment: environment).tls == PostgresTLS(mode: .require, rootCertificate: "system"))
        #expect(try PostgresAddress(url: "postgres://sync@db/sync?sslmode=disable", environment: environment).tls.mode == .disable)
    }

    @Test("a bad parameter is refused, naming it and what was expected",
          arguments: [
              ("postgres://sync@db/sync?sslmode=on", "sslmode: expected disable, allow, prefer, require, verify-ca or verify-full, got on"),
              ("postgres://sync@db/sync?sslcert=/c.pem", "sslcert: not a parameter this server honours in a postgres:// URL; expected sslmode or sslrootcert"),
              ("postgres://sync@db/sync?sslrootcert=", "sslrootcert: expected the path of a PEM file of CA certificates, or system, got an empty value"),
              ("postgres://sync@db/sync?sslmode=require&sslmode=disable", "sslmode: given twice in postgres://sync@db/sync?sslmode=require&sslmode=disable"),
          ])
    func badParameters(url: String, message: String) {
        #expect(throws: PostgresStoreError(.badAddress, message)) { try PostgresAddress(url: url, environment: [:]) }
    }

    @Test("verify-full with the cluster's CA opens the store over TLS, and sync works through it")
    func verifiedStore() async throws {
        let database = try await PostgresTestDatabase.create()
        defer { Task { await database.drop() } }
        let address = try PostgresAddress(url: database.url + "?sslmode=verify-full&sslrootcert=\(try PostgresTestDatabase.certificateAuthority())")
        #expect(try await Self.encrypted(address) == true)
        let store = try await PostgresSyncStore.open(address)
        let device = try await store.registerDevice(name: "d", tokenDigest: "t", user: "", scopes: nil, now: WallTime(secondsSince1970: 1))
        #expect(!device.isEmpty)
        await store.close()
    }

    @Test("prefer (the default) encrypts when the server offers TLS; disable does not")
    func preferAndDisable() async throws {
        let database = try await PostgresTestDatabase.create()
        defer { Task { await database.drop() } }
        #expect(try await Self.encrypted(try PostgresAddress(url: database.url)) == true)
        #expect(try await Self.encrypted(try PostgresAddress(url: database.url + "?sslmode=disable")) == false)
        #expect(try await Self.encrypted(try PostgresAddress(url: database.url + "?sslmode=require")) == true)
    }

    @Test("verify-full against another CA fails, saying the certificate is not signed by a CA in sslrootcert")
    func wrongAuthority() async throws {
        let database = try await PostgresTestDatabase.create()
        defer { Task { await database.drop() } }
        let folder = TemporaryFolder(prefix: "hybrid-tls")
        defer { folder.remove() }
        let stranger = try TestCertificateAuthority(in: folder.path, name: "stranger")
        let address = try PostgresAddress(url: database.url + "?sslmode=verify-full&sslrootcert=\(stranger.certificate)")
        let message = try await Self.openingFailure(address)
        #expect(message.contains("cannot connect to \(address.description): the server's certificate is not signed by a CA in sslrootcert \(stranger.certificate) (sslmode=verify-full)"),
                "\(message)")
    }

    @Test("at an address the certificate does not name, verify-full fails saying so, and verify-ca connects")
    func hostNotNamed() async throws {
        let database = try await PostgresTestDatabase.create()
        defer { Task { await database.drop() } }
        let authority = try PostgresTestDatabase.certificateAuthority()
        let elsewhere = database.url.replacingOccurrences(of: "@127.0.0.1:", with: "@127.0.0.2:")
        let full = try PostgresAddress(url: elsewhere + "?sslmode=verify-full&sslrootcert=\(authority)")
        let message = try await Self.openingFailure(full)
        #expect(message.contains("the server's certificate does not name 127.0.0.2 (sslmode=verify-full checks the host; verify-ca does not)"), "\(message)")
        let store = try await PostgresSyncStore.open(try PostgresAddress(url: elsewhere + "?sslmode=verify-ca&sslrootcert=\(authority)"))
        await store.close()
    }

    @Test("verify-ca with no root certificate file to read fails before connecting, naming the file and the ways out")
    func missingRoots() async throws {
        let address = try PostgresAddress(url: "postgres://sync@127.0.0.1:1/sync?sslmode=verify-ca&sslrootcert=/nonexistent/ca.pem", environment: [:])
        let message = try await Self.openingFailure(address)
        #expect(message.contains("sslrootcert: /nonexistent/ca.pem does not exist; sslmode=verify-ca checks the server's certificate against it"), "\(message)")
    }

    @Test("require against a server without TLS fails saying the server does not accept TLS")
    func serverWithoutTLS() async throws {
        // A listener that answers PostgreSQL's SSLRequest with 'N' (no TLS), as a server with ssl=off does.
        let listener = try NoTLSListener()
        defer { listener.close() }
        let address = try PostgresAddress(url: "postgres://sync@127.0.0.1:\(listener.port)/sync?sslmode=require", environment: [:])
        let message = try await Self.openingFailure(address)
        #expect(message.contains("the server does not accept TLS connections, and sslmode=require requires one"), "\(message)")
    }

    /// Whether a connection made as the store makes its own is encrypted, as the server sees it.
    static func encrypted(_ address: PostgresAddress) async throws -> Bool {
        let logger = Logger(label: "hybrid.tests.postgres") { _ in SwiftLogNoOpLogHandler() }
        let connection = try await PostgresConnection.connect(configuration: try address.connectionConfiguration(), id: 9, logger: logger)
        defer { Task { try? await connection.close() } }
        let rows = try await connection.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: logger).collect()
        return try rows.first?.decode(Bool.self) ?? false
    }

    /// The message `PostgresSyncStore.open` fails with; a test failure if it opens.
    static func openingFailure(_ address: PostgresAddress) async throws -> String {
        do {
            let store = try await PostgresSyncStore.open(address)
            await store.close()
            Issue.record("\(address.description) opened")
            return ""
        } catch let error as SyncServerError {
            return error.message
        }
    }
}

/// A TCP listener on 127.0.0.1 that answers each connection's first 8 bytes (PostgreSQL's
/// SSLRequest) with `N`, "no TLS here", then hangs up: a server with ssl=off, as far as the
/// SSLRequest goes. It accepts on a thread of its own, never the tests' cooperative pool.
final class NoTLSListener: Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("listen on 127.0.0.1: errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 8)
                _ = recv(client, &request, 8, Int32(MSG_WAITALL))
                _ = send(client, [UInt8(ascii: "N")], 1, Int32(MSG_NOSIGNAL))
                Glibc.close(client)
            }
        }
    }

    /// Stops accepting: the thread's accept fails and it ends.
    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }
}
