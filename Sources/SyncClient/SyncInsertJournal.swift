import GRDB
import JSON
import Persistence

/// One insert call into a synced table, as ``SyncJournal`` follows it: each record needs its key
/// (the operation's data id) and gets an operation id; a one-way row carries that id as its
/// `_identifier`, dirty and not deleted; a two-way insert's operation reads its row when it
/// leaves (``DeferredInserts``).
final class SyncInsertJournal: InsertJournal {
    private let table: TableSchema
    private let mode: SyncPolicy.Mode
    private let writer: SyncJournal.Writer
    private let deferred: DeferredInsertChanges?
    private var dataId = ""
    private var identifier = ""

    init(table: TableSchema, mode: SyncPolicy.Mode, session: WriteSession) throws {
        self.table = table
        self.mode = mode
        writer = try SyncJournal.Writer(session)
        deferred = mode == .twoWay ? DeferredInsertChanges.of(session) : nil
    }

    func willInsert(_ values: inout JSONObject, index: Int, path: String) throws {
        dataId = try SyncJournal.dataId(values, schema: table, index: index, path: path)
        identifier = SyncJournal.newIdentifier()
        if mode == .oneWay {
            values["_identifier"] = .string(identifier)
            values["_dirty"] = .number(1)
            values["_deleted"] = .number(0)
        }
    }

    func didInsert(rowid: Int64) throws {
        let seq = try writer.record(opId: identifier, table: table.name, dataId: dataId, type: "insert", data: nil)
        deferred?.add(table: table.name, dataId: dataId, seq: seq)
    }
}
