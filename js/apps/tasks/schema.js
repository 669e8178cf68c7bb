// The tasks database's schema: version 2 added priorities and the lists table. A new database
// is created at version 2 directly; one created by version 1 of the app runs migration "2".
module.exports = {
  version: 2,
  tables: {
    lists: {
      columns: { id: "INTEGER", name: "TEXT NOT NULL UNIQUE", createdAt: "INTEGER NOT NULL" },
      primaryKey: "id",
    },
    tasks: {
      columns: {
        id: "INTEGER",
        listId: "INTEGER NOT NULL",
        title: "TEXT NOT NULL",
        done: "BOOLEAN NOT NULL DEFAULT FALSE",
        due: "INTEGER",
        priority: "INTEGER NOT NULL DEFAULT 0",
        tags: "JSON",
      },
      primaryKey: "id",
      indexes: [{ columns: ["listId", "done"] }, { columns: ["due"] }],
    },
  },
  migrations: {
    2: [
      { op: "addColumn", table: "tasks", column: "priority", type: "INTEGER NOT NULL DEFAULT 0" },
      { op: "createTable", table: "lists", definition: { columns: { id: "INTEGER", name: "TEXT NOT NULL UNIQUE", createdAt: "INTEGER NOT NULL" }, primaryKey: "id" } },
      { op: "addColumn", table: "tasks", column: "listId", type: "INTEGER NOT NULL DEFAULT 1" },
      { op: "createIndex", table: "tasks", columns: ["listId", "done"] },
    ],
  },
};
