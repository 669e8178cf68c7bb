import JSON

/// A structured query compiled into SQL with bound values (the design's QueryCommand).
///
/// `where` is `{column: value}` (equality; `null` means IS NULL), `{column: {eq, ne, lt, lte, gt,
/// gte, in, like, isNull}}` (several operators are ANDed), `$and: [...]` and `$or: [...]`.
/// `orderBy` is `"-due"` or `["-due", "title"]` (`-` for descending). Every column name is checked
/// against the table's schema and every value is bound, so nothing a caller writes becomes SQL;
/// the SQL for one query shape is always the same text, so GRDB's statement cache serves it.
///
/// ```swift
/// let query = try QueryCommand(table: tasks, where: ["done": false, "due": ["lt": 1_700_000_000]],
///                              orderBy: ["-due", "title"], limit: 20)
/// query.selectSQL   // SELECT "id", ... FROM "tasks" WHERE ("done" = ? AND "due" < ?) ORDER BY "due" DESC, "title" LIMIT 20
/// ```
public struct QueryCommand: Sendable {
    public let table: TableSchema
    /// The WHERE clause without the keyword; "1" when there is no filter.
    public private(set) var whereSQL = "1"
    public private(set) var arguments: [(JSONValue, ColumnType)] = []
    public private(set) var orderSQL = ""
    public private(set) var selected: [ColumnDefinition]
    public private(set) var limit: Int?
    /// The `where` as the caller wrote it, for a table's journal (a batch operation carries it).
    public private(set) var filter: JSONValue?
    public private(set) var offset: Int?
    /// Qualifies column names (`"i".`), for queries that join another table.
    private let qualifier: String

    public static let operators = "eq, ne, lt, lte, gt, gte, in, like, isNull"

    /// - Parameter path: where the query's fields sit in the caller's params ("" for the top level):
    ///   errors point at `path + "/where/due/lt"`.
    public init(table: TableSchema, where filter: JSONValue? = nil, orderBy: JSONValue? = nil, limit: JSONValue? = nil,
                offset: JSONValue? = nil, columns: JSONValue? = nil, path: String = "", qualifier: String = "") throws(PersistenceError) {
        self.table = table
        self.qualifier = qualifier
        selected = table.columns
        if let filter, !filter.isNull {
            whereSQL = try compileWhere(filter, path: path + "/where")
            self.filter = filter
        }
        // Rows the table's journal keeps but the app no longer has (a logical delete) are gone for
        // every query.
        if let visible = table.journal?.visibleCondition(qualifier: qualifier) {
            whereSQL = whereSQL == "1" ? visible : "(" + visible + " AND " + whereSQL + ")"
        }
        if let orderBy, !orderBy.isNull { orderSQL = try compileOrder(orderBy, path: path + "/orderBy") }
        if let limit, !limit.isNull {
            guard let n = limit.intValue, n >= 0 else { throw .invalid(path: path + "/limit", message: "expected an integer >= 0, got \(limit)") }
            self.limit = n
        }
        if let offset, !offset.isNull {
            guard let n = offset.intValue, n >= 0 else { throw .invalid(path: path + "/offset", message: "expected an integer >= 0, got \(offset)") }
            self.offset = n
        }
        if let columns, !columns.isNull {
            guard let names = columns.arrayValue, !names.isEmpty else {
                throw .invalid(path: path + "/columns", message: "expected a non-empty array of column names")
            }
            selected = []
            for (i, name) in names.enumerated() {
                selected.append(try column(name, path: path + "/columns/\(i)"))
            }
        }
    }

    private func column(_ value: JSONValue, path: String) throws(PersistenceError) -> ColumnDefinition {
        guard let name = value.stringValue else { throw .invalid(path: path, message: "expected a column name, got \(value.typeName)") }
        return try column(named: name, path: path)
    }

    private func column(named name: String, path: String) throws(PersistenceError) -> ColumnDefinition {
        guard let column = table.column(named: name) else {
            throw .invalid(path: path, message: "unknown column \(Quoted(name)) in table \(Quoted(table.name)); expected one of \(table.columns.map(\.name).joined(separator: ", "))")
        }
        return column
    }

    private func name(_ column: ColumnDefinition) -> String { qualifier + Identifier.quote(column.name) }

    private mutating func compileWhere(_ filter: JSONValue, path: String) throws(PersistenceError) -> String {
        guard let object = filter.objectValue else {
            throw .invalid(path: path, message: "expected an object of conditions {column: value | {\(Self.operators)}, $or, $and}, got \(filter.typeName)")
        }
        if object.isEmpty { return "1" }
        var parts: [String] = []
        for (key, value) in object {
            let keyPath = JSONPointer.appending(path, key: key)
            if key == "$or" || key == "$and" {
                guard let items = value.arrayValue, !items.isEmpty else {
                    throw .invalid(path: keyPath, message: "expected a non-empty array of conditions")
                }
                var clauses: [String] = []
                for (i, item) in items.enumerated() { clauses.append(try compileWhere(item, path: keyPath + "/\(i)")) }
                parts.append("(" + clauses.joined(separator: key == "$or" ? " OR " : " AND ") + ")")
                continue
            }
            let column = try column(named: key, path: keyPath)
            if let ops = value.objectValue, column.type != .json || ops.keys.allSatisfy(Self.isOperator) {
                guard !ops.isEmpty else { throw .invalid(path: keyPath, message: "expected at least one operator: \(Self.operators)") }
                for (op, operand) in ops {
                    parts.append(try compileOperator(op, operand, column: column, path: JSONPointer.appending(keyPath, key: op)))
                }
            } else {
                parts.append(try compileOperator("eq", value, column: column, path: keyPath))
            }
        }
        return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " AND ") + ")"
    }

    static func isOperator(_ key: String) -> Bool {
        ["eq", "ne", "lt", "lte", "gt", "gte", "in", "like", "isNull"].contains(key)
    }

    private mutating func bindValue(_ value: JSONValue, column: ColumnDefinition, path: String) throws(PersistenceError) {
        guard column.type.accepts(value) else {
            throw .invalid(path: path, message: "expected \(column.type.expectation) for column \(Quoted(column.name)) (\(column.type.rawValue)), got \(value.typeName)")
        }
        arguments.append((value, column.type))
    }

    private mutating func compileOperator(_ op: String, _ operand: JSONValue, column: ColumnDefinition, path: String) throws(PersistenceError) -> String {
        let name = name(column)
        switch op {
        case "eq", "ne":
            if operand.isNull { return name + (op == "eq" ? " IS NULL" : " IS NOT NULL") }
            try bindValue(operand, column: column, path: path)
            return name + (op == "eq" ? " = ?" : " != ?")
        case "lt", "lte", "gt", "gte":
            guard !operand.isNull else { throw .invalid(path: path, message: "expected \(column.type.expectation), got null (use isNull)") }
            try bindValue(operand, column: column, path: path)
            return name + ["lt": " < ?", "lte": " <= ?", "gt": " > ?", "gte": " >= ?"][op]!
        case "in":
            guard let items = operand.arrayValue else { throw .invalid(path: path, message: "expected an array of values, got \(operand.typeName)") }
            guard items.count <= 10_000 else { throw .invalid(path: path, message: "expected at most 10000 values, got \(items.count)") }
            if items.isEmpty { return "0" }
            for (i, item) in items.enumerated() {
                guard !item.isNull else { throw .invalid(path: path + "/\(i)", message: "expected \(column.type.expectation), got null (use isNull)") }
                try bindValue(item, column: column, path: path + "/\(i)")
            }
            return name + " IN (" + Array(repeating: "?", count: items.count).joined(separator: ", ") + ")"
        case "like":
            guard case .string = operand else { throw .invalid(path: path, message: "expected a LIKE pattern string (% and _ are wildcards), got \(operand.typeName)") }
            arguments.append((operand, .text))
            return name + " LIKE ?"
        case "isNull":
            guard let b = operand.boolValue else { throw .invalid(path: path, message: "expected a boolean, got \(operand.typeName)") }
            return name + (b ? " IS NULL" : " IS NOT NULL")
        default:
            throw .invalid(path: path, message: "unknown operator \(Quoted(op)); expected one of \(Self.operators)")
        }
    }

    private func compileOrder(_ orderBy: JSONValue, path: String) throws(PersistenceError) -> String {
        let items: [(JSONValue, String)]
        switch orderBy {
        case .string: items = [(orderBy, path)]
        case .array(let array): items = array.enumerated().map { ($1, path + "/\($0)") }
        default: throw .invalid(path: path, message: "expected a column name or an array of them (\"-name\" for descending), got \(orderBy.typeName)")
        }
        var parts: [String] = []
        for (item, itemPath) in items {
            guard var text = item.stringValue else { throw .invalid(path: itemPath, message: "expected a column name (\"-name\" for descending), got \(item.typeName)") }
            var descending = false
            if text.hasPrefix("-") { descending = true; text.removeFirst() } else if text.hasPrefix("+") { text.removeFirst() }
            let column = try column(named: text, path: itemPath)
            parts.append(name(column) + (descending ? " DESC" : ""))
        }
        return parts.joined(separator: ", ")
    }

    public var tail: String {
        var sql = ""
        if !orderSQL.isEmpty { sql += " ORDER BY " + orderSQL }
        if let limit { sql += " LIMIT \(limit)" }
        if let offset { sql += (limit == nil ? " LIMIT -1" : "") + " OFFSET \(offset)" }
        return sql
    }

    public var selectSQL: String {
        "SELECT " + selected.map(name).joined(separator: ", ") + " FROM " + Identifier.quote(table.name) + " WHERE " + whereSQL + tail
    }

    public var countSQL: String {
        "SELECT COUNT(*) FROM " + Identifier.quote(table.name) + " WHERE " + whereSQL
    }
}
