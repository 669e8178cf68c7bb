import JSON
import Persistence
import Testing

@Suite("Schemas")
struct SchemaTests {
    @Test("a column declaration is parsed into structure, and written back the same")
    func parsesDeclarations() throws {
        let column = try ColumnDefinition.parse(name: "title", declaration: "text not null default 'it''s'", path: "/c")
        #expect(column == ColumnDefinition(name: "title", type: .text, notNull: true, defaultValue: "it's"))
        #expect(column.declaration == "TEXT NOT NULL DEFAULT 'it''s'")
    }

    @Test("declarations that are not in the grammar are refused", arguments: [
        "TEXT); DROP TABLE t; --", "VARCHAR(10)", "TEXT CHECK (1)", "INTEGER DEFAULT 'x'", "TEXT DEFAULT", "TEXT 'unterminated", "",
        "INTEGER PRIMARY KEY",
    ])
    func refusesDeclarations(declaration: String) {
        #expect(throws: PersistenceError.self) { try ColumnDefinition.parse(name: "a", declaration: declaration, path: "/c") }
    }

    static let badSchemas: [BadInput] = [
        BadInput(["version": 0, "tables": [:]], path: "/schema/version"),
        BadInput(["version": 1, "tables": ["t-x": ["columns": ["a": "TEXT"]]]], path: "/schema/tables/t-x"),
        BadInput(["version": 1, "tables": ["t": ["columns": ["a": "TEXT", "A": "TEXT"]]]], path: "/schema/tables/t/columns/A"),
        BadInput(["version": 1, "tables": ["t": ["columns": [:]]]], path: "/schema/tables/t/columns"),
        BadInput(["version": 1, "tables": ["t": ["columns": ["a": "TEXT"], "primaryKey": ["a", "b"]]]], path: "/schema/tables/t/primaryKey/1"),
        BadInput(["version": 2, "tables": ["t": ["columns": ["a": "TEXT"]]], "migrations": ["two": [["op": "dropTable", "table": "t"]]]], path: "/schema/migrations/two"),
        BadInput(["version": 2, "tables": ["t": ["columns": ["a": "TEXT"]]], "migrations": ["2": [["op": "renameColumn", "table": "t", "from": "a"]]]], path: "/schema/migrations/2/0/to"),
        BadInput(["version": 1, "tables": [:], "extra": true], path: "/schema/extra"),
    ]

    @Test("a schema names the field it gets wrong", arguments: badSchemas)
    func refusesSchemas(input: BadInput) {
        let path = input.path
        #expect {
            try DatabaseSchema.parse(input.params, path: "/schema")
        } throws: { error in
            guard case PersistenceError.invalid(let actual, _) = error else { return false }
            return actual == path
        }
    }
}
