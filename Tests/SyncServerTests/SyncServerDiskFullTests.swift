import Foundation
import GRDB
import HostTesting
import JSON
import SyncProtocol
import Testing

/// The server's database on a disk that fills up (a real tmpfs) or fails its writes (``FaultingVFS``):
/// a push that cannot be written is a 500 with reason disk_full or io and applies nothing; with room
/// again, or the disk recovered, the same push applies.
@Suite("sync server on a full disk")
struct SyncServerDiskFullTests {
    @Test("a push onto a full disk is 500 disk_full, nothing applied; once there is room it applies")
    func diskFull() async throws {
        let disk = try SmallDisk(kilobytes: 512)
        defer { disk.remove() }
        let server = try await LocalSyncServer.start(database: disk.path + "/sync.sqlite")
        let device = try await server.register(name: "filler")
        let body = String(repeating: "x", count: 2000)
        var full: HTTPReply?
        var applied = 0
        for packet in 0..<1000 {
            let ops = (0..<20).map { i in
                SyncOperation(opId: "op-\(packet)-\(i)", dataId: "r\(packet)-\(i)", table: "notes", type: .insert,
                              data: ["body": .string(body)], timestamp: Double(1_000 + packet * 20 + i))
            }
            let reply = try await server.push(device, packetId: "p\(packet)", dependency: packet == 0 ? nil : "p\(packet - 1)", ops: ops)
            if reply.status != 200 {
                full = reply
                // Room again: the same packet is applied whole.
                try disk.resize(kilobytes: 16384)
                let again = try await server.push(device, packetId: "p\(packet)", dependency: packet == 0 ? nil : "p\(packet - 1)", ops: ops)
                #expect(again.status == 200, "\(again)")
                applied += 20
                break
            }
            applied += 20
        }
        let reply = try #require(full, "the disk never filled up")
        #expect(reply.status == 500 && reply.body["error"]?["reason"] == "disk_full", "\(reply)")
        let page = try await server.pull(device, limit: 10_000)
        #expect(page.body["ops"]?.arrayValue?.count == applied, "every acknowledged op, once")
        await server.stop()
    }

    @Test("a push onto a disk failing with I/O errors is 500 io, nothing applied; once it recovers the same push applies, the file intact")
    func ioError() async throws {
        FaultingVFS.install()
        let folder = TemporaryFolder(prefix: "sync-server-io")
        defer { FaultingVFS.clear(); folder.remove() }
        let server = try await LocalSyncServer.start(database: folder.path + "/sync.sqlite")
        let device = try await server.register(name: "writer")
        func ops(_ packet: Int) -> [SyncOperation] {
            (0..<5).map { i in
                SyncOperation(opId: "op-\(packet)-\(i)", dataId: "r\(packet)-\(i)", table: "notes", type: .insert,
                              data: ["body": .string("packet \(packet)")], timestamp: Double(1_000 + packet * 5 + i))
            }
        }
        #expect(try await server.push(device, packetId: "p0", dependency: nil, ops: ops(0)).status == 200)

        FaultingVFS.failWrites(under: folder.path)
        let failed = try await server.push(device, packetId: "p1", dependency: "p0", ops: ops(1))
        #expect(failed.status == 500 && failed.body["error"]?["reason"] == "io", "\(failed)")
        // A pull records the device's cursor (for compaction), a write too: it either answers
        // with the acknowledged packet or fails the same way, never with less.
        let during = try await server.pull(device, limit: 100)
        #expect(during.body["ops"]?.arrayValue?.count == 5 || (during.status == 500 && during.body["error"]?["reason"] == "io"), "\(during)")

        FaultingVFS.clear()
        let again = try await server.push(device, packetId: "p1", dependency: "p0", ops: ops(1))
        #expect(again.status == 200, "\(again)")
        let page = try await server.pull(device, limit: 100)
        #expect(page.body["ops"]?.arrayValue?.compactMap { $0["opId"]?.stringValue } == (0...1).flatMap { p in (0..<5).map { "op-\(p)-\($0)" } })
        await server.stop()
        let database = try DatabaseQueue(path: folder.path + "/sync.sqlite")
        #expect(try await database.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
    }
}
