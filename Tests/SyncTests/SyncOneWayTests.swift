import CurlTransport
import Foundation
import JSON
import Persistence
import Testing

@Suite("sync: one-way tables (_identifier, _dirty, _deleted, the DirtyList)")
struct SyncOneWayTests {
    @Test("a write marks the row dirty under a new identifier; an acknowledged push cleans it")
    func dirtyThenClean() async throws {
        try await withSync(devices: ["a"]) { server, devices in
            let a = devices[0]
            try await a.insert("messages", [["id": "m1", "body": "hello"]])
            let dirty = try await a.rows("messages")["m1"]
            #expect(dirty?["_dirty"] == 1)
            #expect(dirty?["_identifier"]?.stringValue?.isEmpty == false)
            let run = try await a.run()
            #expect(run["pushed"] == 1)
            #expect(run["pulled"] == 0)
            #expect(try await a.rows("messages")["m1"]?["_dirty"] == 0)
            #expect(try await server.liveRows("messages")["m1"]?["body"] == "hello")
        }
    }

    @Test("repeated updates to one row travel as one operation")
    func merged() async throws {
        try await withSync(devices: ["a"]) { server, devices in
            let a = devices[0]
            try await a.insert("messages", [["id": "m1", "body": "v0"]])
            for i in 1...5 { try await a.update("messages", where: ["id": "m1"], set: ["body": .string("v\(i)")]) }
            let run = try await a.run()
            #expect(run["pushed"] == 1)
            #expect(try await server.liveRows("messages")["m1"]?["body"] == "v5")
        }
    }

    @Test("an edit made while a push is in flight is not lost when the earlier ack arrives")
    func editDuringPush() async throws {
        try await withSync(devices: ["a"]) { server, devices in
            let a = devices[0]
            let replica = try a.replica
            let connection = try replica.connection()!
            try await a.insert("messages", [["id": "m1", "body": "first"]])
            let packets = try replica.packetsToSend(deviceId: connection.deviceId, maxOps: 100)
            #expect(packets.count == 1)
            // The packet is on its way; the user edits the row again.
            try await a.update("messages", where: ["id": "m1"], set: ["body": "second"])
            let request = TransferRequest(url: server.base + "/v1/push", method: "POST",
                                          headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(connection.token)")],
                                          body: Array(packets[0].body.utf8))
            #expect(try await CurlClient.shared.perform(request).status == 200)
            try replica.packetApplied(packets[0])
            // The ack was for the earlier identifier: the row stays dirty.
            #expect(try await a.rows("messages")["m1"]?["_dirty"] == 1)
            #expect(try await server.liveRows("messages")["m1"]?["body"] == "first")
            let run = try await a.run()
            #expect(run["pushed"] == 1)
            #expect(try await server.liveRows("messages")["m1"]?["body"] == "second")
            #expect(try await a.rows("messages")["m1"]?["_dirty"] == 0)
        }
    }

    @Test("a delete is logical until the server confirms it, then the row is gone")
    func logicalDelete() async throws {
        try await withSync(devices: ["a"]) { server, devices in
            let a = devices[0]
            try await a.insert("messages", [["id": "m1", "body": "bye"], ["id": "m2", "body": "stay"]])
            try await a.run()
            try await a.delete("messages", where: ["id": "m1"])
            #expect(try await a.rows("messages").keys.sorted() == ["m2"])
            #expect(try await a.storage("count", ["table": "messages"])["count"] == 1)
            #expect(try a.replica.deletesAwaitingConfirmation() == 1)
            try await a.run()
            #expect(try a.replica.deletesAwaitingConfirmation() == 0)
            #expect(try await server.liveRows("messages").keys.sorted() == ["m2"])
        }
    }
}
