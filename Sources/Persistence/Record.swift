import JSON

/// Anything that can present itself as the columns of a table, and merge with another of its kind:
/// the "virtual record" of the design. A protocol, not a base class, so plain structs and
/// dictionaries are records without inheriting anything.
///
/// ```swift
/// struct Task: Record {
///     var title: String
///     var done: Bool
///     func columns(for table: TableSchema) -> JSONObject { ["title": .string(title), "done": .bool(done)] }
///     func merge(_ other: Task, overriding: Bool) -> Task { overriding ? other : self }
/// }
/// try table.insert([Task(title: "milk", done: false)], in: session)
/// ```
public protocol Record: Sendable {
    /// The record's values by column name. Names the table does not have are refused by the table,
    /// so a record may present the same columns to several tables.
    func columns(for table: TableSchema) -> JSONObject
    /// This record combined with `other`: where both have a column, `other`'s value wins when
    /// `overriding` is true, this record's otherwise.
    func merge(_ other: Self, overriding: Bool) -> Self
}

extension JSONObject: Record {
    public func columns(for table: TableSchema) -> JSONObject { self }

    public func merge(_ other: JSONObject, overriding: Bool) -> JSONObject {
        var merged = self
        for (key, value) in other where overriding || merged[key] == nil {
            merged[key] = value
        }
        return merged
    }
}
