import Foundation
import HostTesting
@testable import SyncAuth
import SystemIO
import Testing

/// `hybrid sync-server token`, run as an operator runs it: what it mints verifies, and flags it
/// cannot honour are refused by name before anything is signed.
@Suite("hybrid sync-server token", .enabled(if: BuiltHybrid.path != nil, "needs the hybrid binary beside the tests (swift build first)"))
struct SyncServerTokenCommandTests {
    struct Run {
        /// The exit status, or 128 + the signal that ended it.
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// Runs `hybrid sync-server token --secret-file <the fixture's secret> ARGUMENTS`.
    func token(_ arguments: [String]) throws -> Run {
        let folder = TemporaryFolder(prefix: "sync-server-token")
        defer { folder.remove() }
        let secretFile = try folder.write("secret", String(decoding: TokenFixture.secret, as: UTF8.self))
        let result = try ChildProcess.run(try #require(BuiltHybrid.path), ["sync-server", "token", "--secret-file", secretFile] + arguments)
        return Run(status: result.status, standardOutput: String(decoding: result.output, as: UTF8.self),
                   standardError: String(decoding: result.errorOutput, as: UTF8.self))
    }

    @Test("flags out of range or holding control characters are refused by name with exit status 2 (usage), and nothing is minted",
          arguments: [
              (["--sub", "alice", "--ttl-seconds", "9223372036854775000"], "--ttl-seconds"),
              (["--sub", "alice", "--ttl-seconds", "315360001"], "--ttl-seconds"),
              (["--sub", "alice", "--ttl-seconds", "0"], "--ttl-seconds"),
              (["--sub", "alice", "--ttl-seconds=-1"], "--ttl-seconds"),
              (["--sub", "bob\nuser:bob"], "--sub"),
              (["--sub", "bob\u{85}"], "--sub"),
              (["--sub", "bob\u{2028}"], "--sub"),
              (["--sub", "alice", "--scope", "user:alice", "--scope", "user:bob\nuser:alice"], "--scope"),
              (["--sub", "alice", "--scope", "team:t1\u{7F}"], "--scope"),
              (["--sub", "alice", "--scope", ""], "--scope"),
          ] as [([String], String)])
    func refusedFlags(arguments: [String], flag: String) throws {
        let run = try token(arguments)
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains(flag + ":") || run.standardError.contains(flag + " "), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }

    @Test("the longest ttl mints a token that verifies, expiring 10 years after it was issued, its scopes byte for byte")
    func longestTTL() throws {
        let scopes = ["team:caf\u{E9}", "team:cafe\u{301}", "user:alice"]
        let run = try token(["--sub", "alice", "--ttl-seconds", "315360000"] + scopes.flatMap { ["--scope", $0] })
        #expect(run.status == 0, "\(run.standardError)")
        let claims = try TokenVerifier(secret: TokenFixture.secret).verify(run.standardOutput.trimmingCharacters(in: .newlines),
                                                                            now: Int64(Date().timeIntervalSince1970))
        let issuedAt = try #require(claims.issuedAt)
        #expect(claims.expiresAt - issuedAt == 315_360_000)
        #expect(claims.scopes.map { Array($0.utf8) } == scopes.map { Array($0.utf8) })
    }

    @Test("--help reads as sentences: no line ends in a stray backslash")
    func help() throws {
        let run = try token(["--help"])
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.contains("signs EdDSA"), "\(run.standardOutput)")
        #expect(!run.standardOutput.split(separator: "\n").contains { $0.hasSuffix("\\") }, "\(run.standardOutput)")
    }
}
