import Foundation
import HostTesting
import SystemIO
import Testing

/// The one sync server launcher and the one `eventually` that every test and benchmark uses.
@Suite("the sync server launcher")
struct LocalSyncServerTests {
    @Test("eventually returns as soon as its condition holds, and false once its limit has passed")
    func eventuallyWaits() async throws {
        let calls = Locked(0)
        // A limit no loaded machine reaches (early in a run, Swift's two pool threads can be busy
        // for many seconds): what is checked is that it returns at the third call.
        #expect(try await eventually(within: .seconds(600)) { calls.withLock { $0 += 1; return $0 == 3 } })
        #expect(calls.value == 3)
        let started = ContinuousClock.now
        #expect(try await eventually(within: .milliseconds(100)) { false } == false)
        #expect(ContinuousClock.now - started >= .milliseconds(100))
    }

    @Test("a server in this process answers on 127.0.0.1, and is stopped and its database deleted when the body throws")
    func inProcessStopsOnFailure() async throws {
        struct Planned: Error {}
        let seen = Locked<(database: String, port: Int)?>(nil)
        await #expect(throws: Planned.self) {
            try await LocalSyncServer.with { server in
                #expect(server.base == "http://127.0.0.1:\(server.port)")
                #expect(try await Self.health(server.port).status == 200)
                seen.value = (server.database, server.port)
                throw Planned()
            }
        }
        let (database, port) = try #require(seen.value)
        #expect(!FileManager.default.fileExists(atPath: database))
        await #expect(throws: RawHTTPError.self) { try await Self.health(port) }
    }

    @Test("a child hybrid sync-server answers until SIGKILLed, and is reaped",
          .enabled(if: BuiltHybrid.path != nil, "needs the hybrid binary beside the tests (swift build first)"))
    func childKilled() async throws {
        let folder = TemporaryFolder(prefix: "local-sync-server-tests")
        defer { folder.remove() }
        let server = try await LocalSyncServer.startChild(database: folder.path + "/sync.sqlite", arguments: ["--backlog", "64"])
        defer { server.stopProcess() }
        #expect(try await Self.health(server.port).status == 200)
        let pid = try #require(server.processIdentifier)
        server.kill()
        #expect(Foundation.kill(pid, 0) != 0, "the child is gone and reaped")
        await #expect(throws: RawHTTPError.self) { try await Self.health(server.port) }
    }

    @Test("a child that cannot start is reported with what it wrote to standard error",
          .enabled(if: BuiltHybrid.path != nil, "needs the hybrid binary beside the tests (swift build first)"))
    func childFailsToStart() async throws {
        let error = try await #require(throws: LocalSyncServerError.self) {
            try await LocalSyncServer.startChild(database: "/nonexistent-folder/sync.sqlite", arguments: ["--no-such-flag"])
        }
        #expect(error.message.contains("did not say where it listens"), "\(error)")
        #expect(error.message.contains("--no-such-flag"), "\(error)")
    }

    /// `GET /v1/health` over a connection of its own, on a thread of its own.
    static func health(_ port: Int) async throws(RawHTTPError) -> RawHTTPResponse {
        try await Blocking.run { () throws(RawHTTPError) -> RawHTTPResponse in
            try RawHTTPClient(port: port).send("GET", "/v1/health", headers: ["Connection: close"])
        }
    }
}
