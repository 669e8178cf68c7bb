// @grants storage
// Schemas and migrations: version nodes, each in its own transaction; a failing step rolls its
// version back and names itself.

const open = (database, schema) => Hybrid.call("storage", "open", { database, schema });
const v1 = { version: 1, tables: { notes: { columns: { id: "INTEGER", body: "TEXT NOT NULL" }, primaryKey: "id" } } };

test("a new database is created at the schema's version, and opening again changes nothing", async () => {
  expect(await open("fresh", { ...v1, version: 3 })).toEqual({ database: "fresh", version: 3 });
  expect(await open("fresh", { ...v1, version: 3 })).toEqual({ database: "fresh", version: 3 });
});

test("migrations run version node by version node and keep the data", async () => {
  await open("m", v1);
  await Hybrid.call("storage", "insert", { database: "m", table: "notes", records: [{ body: "hello" }] });
  const v3 = {
    version: 3,
    tables: {
      notes: { columns: { id: "INTEGER", text: "TEXT NOT NULL", pinned: "BOOLEAN NOT NULL DEFAULT FALSE" }, primaryKey: "id", indexes: [{ columns: ["pinned"] }] },
      tags: { columns: { name: "TEXT NOT NULL" }, primaryKey: "name" },
    },
    migrations: {
      2: [
        { op: "addColumn", table: "notes", column: "pinned", type: "BOOLEAN NOT NULL DEFAULT FALSE" },
        { op: "createTable", table: "tags", definition: { columns: { name: "TEXT NOT NULL" }, primaryKey: "name" } },
      ],
      3: [
        { op: "renameColumn", table: "notes", from: "body", to: "text" },
        { op: "createIndex", table: "notes", columns: ["pinned"], name: "notes_pinned_idx" },
      ],
    },
  };
  expect(await open("m", v3)).toEqual({ database: "m", version: 3 });
  const { records } = await Hybrid.call("storage", "find", { database: "m", table: "notes" });
  expect(records).toEqual([{ id: 1, text: "hello", pinned: false }]);
});

test("a failing step rolls its version back, keeps earlier versions and names the step", async () => {
  await open("f", v1);
  const v3 = {
    version: 3,
    tables: { notes: { columns: { id: "INTEGER", body: "TEXT NOT NULL", a: "TEXT", b: "TEXT" }, primaryKey: "id" } },
    migrations: {
      2: [{ op: "addColumn", table: "notes", column: "a", type: "TEXT" }],
      3: [
        { op: "addColumn", table: "notes", column: "b", type: "TEXT" },
        { op: "dropColumn", table: "notes", column: "missing" },
      ],
    },
  };
  const error = await open("f", v3).then(() => null, (e) => e);
  expect(error).toMatchObject({ code: "E_FAILED", details: { reason: "migration", version: 3, step: 1, op: "dropColumn", databaseVersion: 2 } });
  expect(error.message).toMatch(/step 1 \(dropColumn\)/);
  // Version 2 stays: its column exists, version 3's does not.
  const fixed = { ...v3, tables: { notes: { columns: { id: "INTEGER", body: "TEXT NOT NULL", a: "TEXT", b: "TEXT" }, primaryKey: "id" } },
    migrations: { ...v3.migrations, 3: [{ op: "addColumn", table: "notes", column: "b", type: "TEXT" }] } };
  expect(await open("f", fixed)).toEqual({ database: "f", version: 3 });
});

test("conflicting migrations (tables that disagree with the schema) are refused", async () => {
  await open("c", v1);
  const error = await open("c", {
    version: 2,
    tables: { notes: { columns: { id: "INTEGER", body: "TEXT NOT NULL", extra: "TEXT" }, primaryKey: "id" } },
    migrations: { 2: [{ op: "addColumn", table: "notes", column: "other", type: "TEXT" }] },
  }).then(() => null, (e) => e);
  expect(error).toMatchObject({ code: "E_FAILED", details: { reason: "migration", table: "notes" } });
  expect(error.message).toMatch(/disagree/);
  await expect(open("c", { ...v1, version: 2 })).rejects.toMatchObject({ details: { reason: "migration", version: 2 } });
});

test("a database newer than the schema is refused", async () => {
  await open("n", { ...v1, version: 5 });
  await expect(open("n", v1)).rejects.toMatchObject({ code: "E_FAILED", details: { reason: "migration" } });
});

describe("invalid schemas name the field", () => {
  const cases = [
    ["a column type that is SQL", { version: 1, tables: { t: { columns: { a: "TEXT); DROP TABLE t; --" } } } }, "/schema/tables/t/columns/a"],
    ["an unknown type", { version: 1, tables: { t: { columns: { a: "VARCHAR(20)" } } } }, "/schema/tables/t/columns/a"],
    ["a table name with a quote", { version: 1, tables: { 't"x': { columns: { a: "TEXT" } } } }, "/schema/tables/t\"x"],
    ["a reserved table name", { version: 1, tables: { sqlite_master: { columns: { a: "TEXT" } } } }, "/schema/tables/sqlite_master"],
    ["a primary key that is not a column", { version: 1, tables: { t: { columns: { a: "TEXT" }, primaryKey: "b" } } }, "/schema/tables/t/primaryKey"],
    ["an index on an unknown column", { version: 1, tables: { t: { columns: { a: "TEXT" }, indexes: [{ columns: ["b"] }] } } }, "/schema/tables/t/indexes/0/columns/0"],
    ["a migration above the version", { version: 2, tables: { t: { columns: { a: "TEXT" } } }, migrations: { 3: [{ op: "dropTable", table: "t" }] } }, "/schema/migrations/3"],
    ["an unknown step", { version: 2, tables: { t: { columns: { a: "TEXT" } } }, migrations: { 2: [{ op: "truncate", table: "t" }] } }, "/schema/migrations/2/0/op"],
    ["a NOT NULL column added without a default", { version: 2, tables: { t: { columns: { a: "TEXT" } } }, migrations: { 2: [{ op: "addColumn", table: "t", column: "b", type: "TEXT NOT NULL" }] } }, "/schema/migrations/2/0/type"],
    ["a DEFAULT of the wrong type", { version: 1, tables: { t: { columns: { a: "INTEGER DEFAULT 'x'" } } } }, "/schema/tables/t/columns/a"],
  ];
  for (const [name, schema, path] of cases) {
    test(name, async () => {
      await expect(open("bad", schema)).rejects.toMatchObject({ code: "E_BAD_PARAMS", path });
    });
  }
});
