import JSON
import SyncProtocol
import Testing

/// Values of every wire type, as the server and the client send them.
enum WireSamples {
    static let insert = SyncOperation(opId: "op-1", dataId: "t1", table: "tasks", type: .insert, data: ["title": "milk", "n": 1.5], timestamp: 1000)
    static let scopedDelete = SyncOperation(opId: "op-2", dataId: "b1", table: "board", type: .delete, data: ["owner": "team:a"],
                                            dependencyId: "op-1", timestamp: 2000, scopeColumn: "owner")
    static let batch = SyncOperation(opId: "op-3", dataId: "*", table: "tasks", type: .batch,
                                     data: ["where": ["due": ["lt": 10]], "set": ["done": true]], timestamp: 3000)

    static let pullPage = PullPage(ops: [LoggedOperation(seq: 7, deviceId: "d1", operation: insert, deviceTimestamp: 1_700_000_000_000),
                                         LoggedOperation(seq: 8, deviceId: "d2", operation: scopedDelete),
                                         LoggedOperation(seq: 9, deviceId: "d1", operation: batch)],
                                   cursor: 9, more: true, scopes: ["team:a", "team:b"])

    static let packet = PushPacket(deviceId: "d1", packetId: "p2", dependencyIdentifier: "p1", ops: [insert, scopedDelete, batch])

    static let rejections = [PushRejection(packetId: "p3", reason: "ops/0: op op-9 on board/b9 refused: the row is not in a scope the token grants", opId: "op-9"),
                             PushRejection(packetId: "p2", reason: PushRejection.dependencyRejected("p1"))]

    static let records = [
        PacketRecord(packetId: "p1", seq: 1, state: .applied, dependencyIdentifier: nil, applied: ["op-1"], duplicates: [], cursor: 7),
        PacketRecord(packetId: "p2", seq: 2, state: .rejected, dependencyIdentifier: "p1", reason: PushRejection.dependencyNotReceived("p1", holdSeconds: 30)),
        PacketRecord(packetId: "p3", seq: 3, state: .held, dependencyIdentifier: "p2"),
    ]

    static let rows = [MaterializedRow(dataId: "t1", data: ["title": "milk"], deleted: false, timestamp: 1000, opId: "op-1"),
                       MaterializedRow(dataId: "t2", data: [:], deleted: true, timestamp: 2000.5, opId: "op-2")]
    static let snapshotPage = SyncSnapshot(cursor: 9, tables: ["tasks": rows, "board": [rows[0]]], next: RowPosition(table: "tasks", dataId: "t2"))
    static let lastSnapshotPage = SyncSnapshot(cursor: 9, tables: ["tasks": rows])

    static let refusal: SyncServerError = {
        var error = SyncServerError(.forbidden, "ops/0: refused", path: "/ops/0", reason: .scope)
        error.opId = "op-9"
        return error
    }()
}

@Suite("sync wire protocol")
struct WireProtocolTests {
    /// Through text, as the wire carries it.
    static func travelled(_ value: JSONValue) throws -> JSONValue {
        try JSONParser.parse(JSONWriter.bytes(value))
    }

    @Test("a pull page reads back as it was written, ops, cursor, more and scopes")
    func pullPageRoundTrip() throws {
        #expect(try PullPage.decode(Self.travelled(WireSamples.pullPage.json)) == WireSamples.pullPage)
        let bare = PullPage(ops: [], cursor: 3, more: false)
        #expect(try PullPage.decode(Self.travelled(bare.json)) == bare)
    }

    @Test("a pull page keeps the bytes it had before the protocol typed it")
    func pullPageBytes() throws {
        let page = PullPage(ops: [LoggedOperation(seq: 1, deviceId: "d1", operation: WireSamples.insert)], cursor: 1, more: false, scopes: ["s"])
        #expect(JSONWriter.write(page.json) == #"{"ops":[{"opId":"op-1","dataId":"t1","table":"tasks","type":"insert","data":{"title":"milk","n":1.5},"dependencyId":null,"timestamp":1000,"seq":1,"deviceId":"d1"}],"cursor":1,"more":false,"scopes":["s"]}"#)
    }

    @Test("a push packet reads back as the client wrote it, in the bytes it wrote by hand before")
    func pushPacketRoundTrip() throws {
        #expect(try PushPacket.decode(Self.travelled(WireSamples.packet.json)) == WireSamples.packet)
        let first = PushPacket(deviceId: "d1", packetId: "p1", dependencyIdentifier: nil, ops: [WireSamples.insert])
        #expect(JSONWriter.write(first.json) == #"{"deviceId":"d1","packetId":"p1","dependencyIdentifier":null,"ops":[{"opId":"op-1","dataId":"t1","table":"tasks","type":"insert","data":{"title":"milk","n":1.5},"dependencyId":null,"timestamp":1000}]}"#)
    }

    @Test("each push answer reads back with its status", arguments: [
        PushAnswer.applied(applied: ["op-1", "op-2"], duplicates: ["op-0"], cursor: 12),
        PushAnswer.held(packetId: "p2", waitingFor: "p1"),
    ] + WireSamples.rejections.map(PushAnswer.rejected))
    func pushAnswerRoundTrip(_ answer: PushAnswer) throws {
        #expect(try PushAnswer.decode(status: answer.status, body: Self.travelled(answer.json)) == answer)
    }

    @Test("a rejection's cause: its dependency, one op's scope, or the packet itself")
    func rejectionCause() throws {
        #expect(PushRejection(packetId: "p", reason: PushRejection.dependencyRejected("o")).cause == .dependency)
        #expect(PushRejection(packetId: "p", reason: PushRejection.dependencyNotReceived("o", holdSeconds: 0.5)).cause == .dependency)
        #expect(PushRejection(packetId: "p", reason: PushRejection.dependencyStillHeld("o", holdSeconds: 30)).cause == .dependency)
        #expect(PushRejection(packetId: "p", reason: "refused", opId: "op-9").cause == .scope(opId: "op-9"))
        #expect(PushRejection(packetId: "p", reason: "ops/0/table: expected string, got number").cause == .refused)
        #expect(PushRejection.dependencyNotReceived("p1", holdSeconds: 30) == "dependency p1 not received within 30 s")
        #expect(PushRejection.dependencyStillHeld("p1", holdSeconds: 0.25) == "dependency p1 still held after 0.25 s")
    }

    @Test("a rejected push's body is the one the server wrote by hand before, its error inside")
    func rejectionBytes() throws {
        let answer = PushAnswer.rejected(WireSamples.rejections[0])
        #expect(JSONWriter.write(answer.json) == #"{"rejected":true,"packetId":"p3","reason":"ops/0: op op-9 on board/b9 refused: the row is not in a scope the token grants","error":{"code":"conflict","message":"packet p3 was rejected: ops/0: op op-9 on board/b9 refused: the row is not in a scope the token grants","reason":"scope","opId":"op-9"},"opId":"op-9"}"#)
    }

    @Test("a status that is no push answer, or a 409 without rejected, reads as no push answer")
    func notAPushAnswer() throws {
        #expect(try PushAnswer.decode(status: 403, body: WireSamples.refusal.json) == nil)
        #expect(try PushAnswer.decode(status: 409, body: SyncServerError(.conflict, "no").json) == nil)
    }

    @Test("a packet record reads back as the server wrote it", arguments: WireSamples.records)
    func packetRecordRoundTrip(_ record: PacketRecord) throws {
        #expect(try PacketRecord.decode(Self.travelled(record.json)) == record)
    }

    @Test("a snapshot page reads back with its rows and where the next page starts")
    func snapshotRoundTrip() throws {
        #expect(try SyncSnapshot.decode(Self.travelled(WireSamples.snapshotPage.json)) == WireSamples.snapshotPage)
        #expect(try SyncSnapshot.decode(Self.travelled(WireSamples.lastSnapshotPage.json)) == WireSamples.lastSnapshotPage)
    }

    @Test("an error reads back with its code, reason and op; a reason this client does not know reads as none")
    func errorRoundTrip() throws {
        #expect(try SyncServerError.decode(Self.travelled(WireSamples.refusal.json)) == WireSamples.refusal)
        let newer: JSONValue = ["error": ["code": "forbidden", "message": "no", "reason": "quota"]]
        #expect(try SyncServerError.decode(newer) == SyncServerError(.forbidden, "no"))
        #expect(throws: SyncWireError("error/code: unknown code \"nope\", expected one of bad_request, unauthorized, forbidden, not_found, "
                                      + "method_not_allowed, too_large, conflict, compacted, rate_limited, internal", path: "/error/code")) {
            try SyncServerError.decode(["error": ["code": "nope", "message": "no"]])
        }
    }

    @Test("a registration reads back, with and without a device token")
    func registrationRoundTrip() throws {
        for device in [RegisteredDevice(deviceId: "d1", token: String(repeating: "a", count: 64)), RegisteredDevice(deviceId: "d1")] {
            #expect(try RegisteredDevice.decode(Self.travelled(device.json)) == device)
        }
    }

    /// Bodies missing one field, and the message that names it.
    static let missingFields: [(body: JSONValue, decode: @Sendable (JSONValue) throws -> Void, message: String)] = [
        (["ops": [], "more": false], { _ = try PullPage.decode($0) }, "cursor: expected integer, missing"),
        (["ops": [["opId": "o", "dataId": "d", "table": "t", "type": "delete", "data": nil, "dependencyId": nil, "timestamp": 1, "deviceId": "d1"]],
          "cursor": 1, "more": false], { _ = try PullPage.decode($0) }, "ops/0/seq: expected integer, missing"),
        (["applied": [], "cursor": 1], { _ = try PushAnswer.decode(status: 200, body: $0) }, "duplicates: expected array, missing"),
        (["held": true, "packetId": "p2"], { _ = try PushAnswer.decode(status: 202, body: $0) }, "waitingFor: expected string, missing"),
        (["rejected": true, "packetId": "p2", "error": ["code": "conflict", "message": "m"]], { _ = try PushAnswer.decode(status: 409, body: $0) },
         "reason: expected string, missing"),
        (["packetId": "p1", "state": "held", "dependencyIdentifier": nil], { _ = try PacketRecord.decode($0) }, "seq: expected integer, missing"),
        (["cursor": 1, "tables": ["tasks": [["dataId": "t1", "data": [:], "deleted": false, "opId": "o"]]], "more": false],
         { _ = try SyncSnapshot.decode($0) }, "tables/tasks/0/timestamp: expected number, missing"),
        (["cursor": 1, "tables": [:], "more": true], { _ = try SyncSnapshot.decode($0) }, "next: expected object, missing"),
        (["error": ["code": "forbidden"]], { _ = try SyncServerError.decode($0) }, "error/message: expected string, missing"),
        ([:], { _ = try RegisteredDevice.decode($0) }, "deviceId: expected string, missing"),
    ]

    @Test("a body missing a field is refused with a message naming the field", arguments: missingFields.indices)
    func missingField(_ index: Int) throws {
        let (body, decode, message) = Self.missingFields[index]
        do {
            try decode(body)
            Issue.record("\(body) was read")
        } catch let error as SyncWireError {
            #expect(error.message == message)
        }
    }
}
