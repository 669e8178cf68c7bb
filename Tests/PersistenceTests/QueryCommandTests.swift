import JSON
import Persistence
import Testing

@Suite("QueryCommand")
struct QueryCommandTests {
    let tasks = TableSchema(name: "tasks", columns: [
        ColumnDefinition(name: "id", type: .integer),
        ColumnDefinition(name: "title", type: .text, notNull: true),
        ColumnDefinition(name: "done", type: .boolean),
        ColumnDefinition(name: "due", type: .integer),
    ], primaryKey: ["id"])

    @Test("a filter compiles to SQL with placeholders and bound values, in the filter's order")
    func compilesWhere() throws {
        let query = try QueryCommand(table: tasks, where: ["done": false, "due": ["lt": 1_700_000_000], "$or": [["title": ["like": "%milk%"]], ["id": ["in": [1, 2]]]]],
                                     orderBy: ["-due", "title"], limit: 20, offset: 40)
        #expect(query.selectSQL == #"SELECT "id", "title", "done", "due" FROM "tasks" WHERE ("done" = ? AND "due" < ? AND ("title" LIKE ? OR "id" IN (?, ?))) ORDER BY "due" DESC, "title" LIMIT 20 OFFSET 40"#)
        #expect(query.arguments.map(\.0) == [false, 1_700_000_000, "%milk%", 1, 2])
    }

    @Test("the same shape with other values gives the same SQL text, so the statement cache serves it")
    func sameShapeSameSQL() throws {
        let a = try QueryCommand(table: tasks, where: ["due": ["gte": 1]])
        let b = try QueryCommand(table: tasks, where: ["due": ["gte": 99]])
        #expect(a.selectSQL == b.selectSQL)
    }

    @Test("null means IS NULL, and ne null IS NOT NULL")
    func nulls() throws {
        #expect(try QueryCommand(table: tasks, where: ["due": nil]).whereSQL == #""due" IS NULL"#)
        #expect(try QueryCommand(table: tasks, where: ["due": ["ne": nil]]).whereSQL == #""due" IS NOT NULL"#)
        #expect(try QueryCommand(table: tasks, where: ["due": ["isNull": false]]).whereSQL == #""due" IS NOT NULL"#)
    }

    static let badQueries: [BadInput] = [

        BadInput(["where": ["nope": 1]], path: "/where/nope", "unknown column \"nope\""),
        BadInput(["where": ["due": ["lt": "soon"]]], path: "/where/due/lt", "expected an integer"),
        BadInput(["where": ["due": ["between": [1, 2]]]], path: "/where/due/between", "unknown operator"),
        BadInput(["where": ["\"title\" OR 1=1 --": 1]], path: "/where/\"title\" OR 1=1 --", "unknown column"),
        BadInput(["where": ["$or": []]], path: "/where/$or", "non-empty array"),
        BadInput(["where": ["$or": [["title": 5]]]], path: "/where/$or/0/title", "expected a string"),
        BadInput(["where": ["id": ["in": [1, "x"]]]], path: "/where/id/in/1", "expected an integer"),
        BadInput(["orderBy": ["title; DROP TABLE tasks"]], path: "/orderBy/0", "unknown column"),
        BadInput(["orderBy": 5], path: "/orderBy", "expected a column name"),
        BadInput(["columns": ["*"]], path: "/columns/0", "unknown column \"*\""),
        BadInput(["limit": -1], path: "/limit", "expected an integer >= 0"),
        BadInput(["where": "1=1"], path: "/where", "expected an object"),
    ]

    @Test("bad queries are refused with the path of the field and what was expected", arguments: badQueries)
    func badInputs(input: BadInput) {
        let (params, path, message) = (input.params, input.path, input.message)
        #expect {
            try QueryCommand(table: tasks, where: params["where"], orderBy: params["orderBy"], limit: params["limit"], columns: params["columns"])
        } throws: { error in
            guard case PersistenceError.invalid(let actualPath, let actualMessage) = error else { return false }
            return actualPath == path && actualMessage.contains(message)
        }
    }
}

struct BadInput: Sendable, CustomTestStringConvertible {
    let params: JSONValue
    let path: String
    let message: String

    init(_ params: JSONValue, path: String, _ message: String = "") {
        self.params = params
        self.path = path
        self.message = message
    }

    var testDescription: String { "\(params) → \(path)" }
}
