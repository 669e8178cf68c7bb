import JSON
import SyncProtocol

/// Sync's wire format, both ways. The input is read as a push body (`PushPacket.decode`, as the
/// server reads `POST /v1/push`) and as a pull page (`{"ops": [...], "cursor", "more"}`, each op
/// read with `SyncOperation.decode` as the client reads them). Whatever the server accepts, it can
/// serve: an op written back to the wire as the log serves it reads back as the same op. Ops that
/// read are folded into a small state by `OperationFold`, and applying an op a second time, right
/// after the first, changes nothing.
enum SyncFuzzTarget {
    static let target = FuzzTarget(name: "sync", summary: "PushPacket.decode, pull pages, SyncOperation/BatchChange round trip, OperationFold") { input throws(FuzzFinding) in
        try run(input)
    }

    static func run(_ input: [UInt8]) throws(FuzzFinding) {
        guard let body = try? JSONParser.parse(input) else { return }
        if let packet = try? PushPacket.decode(body) {
            for (index, op) in packet.ops.enumerated() {
                let logged = LoggedOperation(seq: index + 1, deviceId: packet.deviceId, operation: op)
                try roundTrip(op, served: logged.json, at: "/ops/\(index)")
            }
            try fold(packet.ops)
        }
        var pulled: [SyncOperation] = []
        for (index, element) in (body["ops"]?.arrayValue ?? []).enumerated() {
            guard let op = try? SyncOperation.decode(element, at: "/ops/\(index)") else { continue }
            try roundTrip(op, served: .object(op.json), at: "/ops/\(index)")
            pulled.append(op)
        }
        try fold(pulled)
    }

    /// `op`, as the wire carries it, reads back as `op`.
    static func roundTrip(_ op: SyncOperation, served: JSONValue, at pointer: String) throws(FuzzFinding) {
        // Through text, as it travels.
        let text = JSONWriter.bytes(served)
        let again: SyncOperation
        do {
            again = try SyncOperation.decode(try JSONParser.parse(text), at: pointer)
        } catch {
            throw FuzzFinding("sync", "an op that was accepted does not read back from the wire: \(error)\n\(String(decoding: text, as: UTF8.self))")
        }
        guard again == op else {
            throw FuzzFinding("sync", "an op changed on the wire: \(op.json) became \(again.json)")
        }
        if op.type == .batch {
            do {
                _ = try BatchChange(value: op.data.map(JSONValue.object), at: pointer + "/data")
            } catch {
                throw FuzzFinding("sync", "a batch op that decoded has a filter that does not: \(error)")
            }
        }
    }

    /// Rows every fold starts from: live and deleted, with the shapes batch filters compare.
    static let rows: [MaterializedRow] = [
        MaterializedRow(dataId: "a", data: ["title": "milk", "done": false, "due": 2], deleted: false, timestamp: 10, opId: "op-a"),
        MaterializedRow(dataId: "b", data: ["title": "walk", "done": true, "due": nil], deleted: false, timestamp: 20, opId: "op-b"),
        MaterializedRow(dataId: "c", data: ["title": "gone"], deleted: true, timestamp: 30, opId: "op-c"),
    ]

    /// Folds `ops` in order into ``rows``; each op is applied a second time at once, which must
    /// change nothing (the op's own stamp is now the rows' it changed, and it loses to it).
    static func fold(_ ops: [SyncOperation]) throws(FuzzFinding) {
        var state = Dictionary(uniqueKeysWithValues: rows.map { ($0.dataId, $0) })
        for op in ops {
            for pass in 0..<2 {
                var changed = false
                if op.type == .batch {
                    guard let change = try? BatchChange(value: op.data.map(JSONValue.object), at: "/data") else { break }
                    for (key, row) in state {
                        if let next = OperationFold.apply(change, of: op, to: row) {
                            state[key] = next
                            changed = true
                        }
                    }
                } else if let next = OperationFold.apply(op, to: state[op.dataId]) {
                    state[op.dataId] = next
                    changed = true
                }
                if pass == 1, changed {
                    throw FuzzFinding("sync", "the op \(op.opId) changed the state again when applied a second time")
                }
            }
        }
    }
}
