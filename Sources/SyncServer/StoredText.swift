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
        guard case .array(let elements) = try parse(text, "stored list") else {
            throw SyncServerError(.internalError, "stored list is not a JSON array: \(text)")
        }
        return elements.compactMap(\.stringValue)
    }

    static func ops(_ ops: [SyncOperation]) -> String {
        JSONWriter.write(.array(ops.map { .object($0.json) }))
    }

    static func heldOps(_ text: String?, packetId: String) throws -> [SyncOperation] {
        guard let text else { throw SyncServerError(.internalError, "held packet \(packetId) has no stored ops") }
        guard case .array(let elements) = try parse(text, "held packet \(packetId)'s stored ops") else {
            throw SyncServerError(.internalError, "held packet \(packetId)'s stored ops are not a JSON array")
        }
        return try elements.enumerated().map { index, element in
            try SyncOperation.decode(element, at: "/ops/\(index)")
        }
    }

    /// A materialized row from its stored columns.
    static func row(table: String, dataId: String, dataText: String, deleted: Bool, timestamp: Double, opId: String) throws -> MaterializedRow {
        guard case .object(let data) = try parse(dataText, "stored row \(table)/\(dataId)") else {
            throw SyncServerError(.internalError, "stored row \(table)/\(dataId) is not a JSON object")
        }
        return MaterializedRow(dataId: dataId, data: data, deleted: deleted, timestamp: timestamp, opId: opId)
    }

    /// `text` parsed; else an error naming `what` and where the parser stopped, so that a damaged
    /// column is found from the message.
    private static func parse(_ text: String, _ what: String) throws(SyncServerError) -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            throw SyncServerError(.internalError, "\(what) is not JSON: \(error)")
        }
    }

    /// `30` for whole seconds, `0.3` otherwise: the form a rejection reason shows.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
