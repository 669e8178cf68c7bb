import JSON
import SyncProtocol

/// The JSON text a store keeps in its columns (scopes, opId lists, a held packet's ops, a row's
/// data), written and read back the same way whatever the database.
enum StoredText {
    static func list(_ strings: [String]) -> String {
        JSONWriter.write(.array(strings.map(JSONValue.string)))
    }

    static func strings(_ text: String?) throws -> [String]? {
        guard let text else { return nil }
        guard case .array(let elements)? = try? JSONParser.parse(text) else {
            throw SyncServerError(.internalError, "stored list is not a JSON array: \(text)")
        }
        return elements.compactMap(\.stringValue)
    }

    static func ops(_ ops: [SyncOperation]) -> String {
        JSONWriter.write(.array(ops.map { .object($0.json) }))
    }

    static func heldOps(_ text: String?, packetId: String) throws -> [SyncOperation] {
        guard let text, case .array(let elements)? = try? JSONParser.parse(text) else {
            throw SyncServerError(.internalError, "held packet \(packetId) has no stored ops")
        }
        return try elements.enumerated().map { index, element in
            try SyncOperation.decode(element, at: "/ops/\(index)")
        }
    }

    /// A materialized row from its stored columns.
    static func row(table: String, dataId: String, dataText: String, deleted: Bool, timestamp: Double, opId: String) throws -> MaterializedRow {
        guard case .object(let data)? = try? JSONParser.parse(dataText) else {
            throw SyncServerError(.internalError, "stored row \(table)/\(dataId) is not a JSON object")
        }
        return MaterializedRow(dataId: dataId, data: data, deleted: deleted, timestamp: timestamp, opId: opId)
    }

    /// `30` for whole seconds, `0.3` otherwise: the form a rejection reason shows.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
