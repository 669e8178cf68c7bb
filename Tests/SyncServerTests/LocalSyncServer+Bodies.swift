import HostTesting
import JSON
import SyncProtocol

/// The bodies a test sends: a push packet and the ops in it.
extension LocalSyncServer {
    static func packet(_ deviceId: String, _ packetId: String, _ dependency: String?, _ ops: [SyncOperation]) -> JSONValue {
        ["deviceId": .string(deviceId), "packetId": .string(packetId), "dependencyIdentifier": dependency.map(JSONValue.string) ?? .null,
         "ops": .array(ops.map { .object($0.json) })]
    }

    static func insert(_ opId: String, table: String = "tasks", _ dataId: String, _ data: JSONObject, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: table, type: .insert, data: data, timestamp: timestamp)
    }

    static func update(_ opId: String, table: String = "tasks", _ dataId: String, _ data: JSONObject, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: table, type: .update, data: data, timestamp: timestamp)
    }

    static func delete(_ opId: String, table: String = "tasks", _ dataId: String, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: dataId, table: table, type: .delete, data: nil, timestamp: timestamp)
    }

    static func batch(_ opId: String, table: String = "tasks", where filter: JSONObject, set: JSONObject, at timestamp: Double) -> SyncOperation {
        SyncOperation(opId: opId, dataId: "*", table: table, type: .batch, data: ["where": .object(filter), "set": .object(set)],
                      timestamp: timestamp)
    }
}
