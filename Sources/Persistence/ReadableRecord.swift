import JSON

/// A record that can be built from a fetched row: the reading half of the "virtual record", as
/// GRDB's `FetchableRecord` is. ``Table/fetch(_:as:in:)`` reads rows straight into it, without a
/// dictionary per row in between.
///
/// ```swift
/// struct Task: Record, ReadableRecord {
///     var title: String
///     var done: Bool
///     init(row: FetchedRow) throws(PersistenceError) {
///         title = try row.string("title")
///         done = try row.bool("done")
///     }
///     ...
/// }
/// let open = try table.fetch(QueryCommand(table: table.schema, where: ["done": false]), as: Task.self, in: session)
/// ```
public protocol ReadableRecord: Sendable {
    /// Reads the record from `row`, by column name. A name the query did not select throws.
    init(row: FetchedRow) throws(PersistenceError)
}

extension JSONObject: ReadableRecord {
    /// Every selected column, as ``Table/find(_:in:)`` returns them.
    public init(row: FetchedRow) throws(PersistenceError) {
        var members: [Member] = []
        members.reserveCapacity(row.names.count)
        for index in row.names.indices {
            members.append((key: row.names[index], value: SQLiteBinding.column(Int32(index), as: row.types[index], in: row.statement)))
        }
        self.init(members)
    }
}
