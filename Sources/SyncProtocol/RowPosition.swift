/// Where a paged snapshot stopped: the last row returned, by (table, dataId) in UTF-8 byte order.
public struct RowPosition: Sendable, Equatable {
    public var table: String
    public var dataId: String

    public init(table: String, dataId: String) {
        self.table = table
        self.dataId = dataId
    }
}
