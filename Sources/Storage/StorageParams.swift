import Bridge
import JSON
import Persistence

// The params of the `storage` target's actions (contract `services/storage.json`), decoded once
// per call. The five table operations are also a transaction's ops, which name no database: each
// is one type, and the action's params add the database to it.

/// The params of `insert`, `update`, `delete`, `find` and `count`: the database, and the operation
/// on one of its tables.
struct TableActionParams<Operation: ActionParams>: ActionParams {
    /// The database's name; the registry checks it.
    let database: String
    let operation: Operation

    init(from params: ParamsReader) throws(BridgeError) {
        database = try params.required("database")
        operation = try Operation(from: params)
    }
}

typealias InsertParams = TableActionParams<InsertOperation>
typealias UpdateParams = TableActionParams<UpdateOperation>
typealias DeleteParams = TableActionParams<DeleteOperation>
typealias FindParams = TableActionParams<FindOperation>
typealias CountParams = TableActionParams<CountOperation>

/// `storage.open`.
struct OpenParams: ActionParams {
    let database: String
    /// Parsed by `DatabaseSchema`, which points its errors into `/schema`.
    let schema: JSONObject

    init(from params: ParamsReader) throws(BridgeError) {
        database = try params.required("database")
        schema = try params.required("schema")
    }
}

/// Inserts `records` into `table`.
struct InsertOperation: ActionParams {
    let table: String
    /// Column name → value; the table checks names and types. The params' own objects, not copies.
    let records: [JSONObject]

    init(from params: ParamsReader) throws(BridgeError) {
        table = try params.required("table")
        records = try params.required("records")
    }
}

/// Sets `set`'s columns on the rows `filter` matches.
struct UpdateOperation: ActionParams {
    let table: String
    /// The `where` filter: every row when nil.
    let filter: JSONObject?
    let set: JSONObject

    init(from params: ParamsReader) throws(BridgeError) {
        table = try params.required("table")
        filter = try params.optional("where")
        set = try params.required("set")
    }
}

/// Deletes, or counts, the rows `filter` matches: the two operations read the same fields.
struct FilterOperation: ActionParams {
    let table: String
    /// The `where` filter: every row when nil.
    let filter: JSONObject?

    init(from params: ParamsReader) throws(BridgeError) {
        table = try params.required("table")
        filter = try params.optional("where")
    }
}

typealias DeleteOperation = FilterOperation
typealias CountOperation = FilterOperation

/// The rows `filter` matches, ordered, paged and narrowed to `columns`.
struct FindOperation: ActionParams {
    let table: String
    /// The `where` filter: every row when nil.
    let filter: JSONObject?
    /// A column or an array of columns, `-` first for descending: `QueryCommand` checks the names.
    let orderBy: JSONValue?
    let limit: Int?
    let offset: Int?
    /// Every column when nil.
    let columns: [String]?

    init(from params: ParamsReader) throws(BridgeError) {
        table = try params.required("table")
        filter = try params.optional("where")
        orderBy = try params.optional("orderBy")
        limit = try params.optional("limit")
        offset = try params.optional("offset")
        columns = try params.optional("columns")
    }

    /// The query on `table`. `QueryCommand` reads its fields as JSON, the form stored filters
    /// come back in too, and checks them against the table's columns.
    func query(on table: TableSchema, path: String) throws(PersistenceError) -> QueryCommand {
        try QueryCommand(table: table, where: filter.map(JSONValue.object), orderBy: orderBy, limit: limit.map { .number(Double($0)) },
                         offset: offset.map { .number(Double($0)) }, columns: columns.map { .array($0.map(JSONValue.string)) }, path: path)
    }
}

/// `storage.transaction`: the ops, run in order in one write transaction.
struct TransactionParams: ActionParams {
    let database: String
    let ops: [TransactionOperation]

    init(from params: ParamsReader) throws(BridgeError) {
        database = try params.required("database")
        ops = try params.required("ops")
    }
}

/// One op of a transaction, by its `action`.
///
/// The contract lists every op's fields as optional, since which are required depends on the
/// action; each case's type requires its own (an insert its records, an update its `set`).
enum TransactionOperation: ActionParams {
    case insert(InsertOperation)
    case update(UpdateOperation)
    case delete(DeleteOperation)
    case find(FindOperation)
    case count(CountOperation)

    enum Action: String, CaseIterable, ParamValue {
        case insert, update, delete, find, count
    }

    init(from params: ParamsReader) throws(BridgeError) {
        self = switch try params.required("action", as: Action.self) {
        case .insert: .insert(try InsertOperation(from: params))
        case .update: .update(try UpdateOperation(from: params))
        case .delete: .delete(try DeleteOperation(from: params))
        case .find: .find(try FindOperation(from: params))
        case .count: .count(try CountOperation(from: params))
        }
    }
}

/// `storage.watch`.
struct WatchParams: ActionParams {
    let database: String
    /// Every table's events when nil.
    let tables: [String]?
    /// The seq last seen; nil for the events after now.
    let since: Int64?
    let timeoutMs: Int

    init(from params: ParamsReader) throws(BridgeError) {
        database = try params.required("database")
        tables = try params.optional("tables")
        since = try params.optional("since", as: Int.self).map(Int64.init)
        timeoutMs = try params.optional("timeoutMs") ?? LongPoll.defaultTimeoutMs
    }
}
