// @grants storage
// The storage target through the real bridge: open/migrate, CRUD, queries, transactions, and the
// errors each bad input gets (a code, a JSON Pointer path into the params, a message naming it).

const schema = {
  version: 1,
  tables: {
    tasks: {
      columns: { id: "INTEGER", title: "TEXT NOT NULL", done: "BOOLEAN NOT NULL DEFAULT FALSE", due: "INTEGER", tags: "JSON", photo: "BLOB" },
      primaryKey: "id",
      indexes: [{ columns: ["due"] }],
    },
    lists: { columns: { name: "TEXT NOT NULL", owner: "TEXT NOT NULL" }, primaryKey: ["owner", "name"] },
  },
};

const call = (action, params) => Hybrid.call("storage", action, { database: "tasks", ...params });

beforeAll(async () => {
  expect(await call("open", { schema })).toEqual({ database: "tasks", version: 1 });
});

beforeEach(async () => {
  await call("delete", { table: "tasks" });
  await call("insert", {
    table: "tasks",
    records: [
      { title: "milk", due: 300, tags: ["shop"] },
      { title: "bread", due: 100, done: true },
      { title: "mail", due: 200, photo: new Uint8Array([1, 2, 3]) },
      { title: "call mum" },
    ],
  });
});

describe("crud", () => {
  test("find returns value copies with booleans, JSON and bytes decoded", async () => {
    const { records } = await call("find", { table: "tasks", orderBy: "title" });
    expect(records.map((r) => r.title)).toEqual(["bread", "call mum", "mail", "milk"]);
    expect(records[0].done).toBe(true);
    expect(records[3].tags).toEqual(["shop"]);
    expect(records[2].photo).toEqual(new Uint8Array([1, 2, 3]));
    records[0].title = "changed in JS";
    const again = await call("find", { table: "tasks", where: { title: "bread" } });
    expect(again.records).toHaveLength(1);
  });

  test("where with operators, $or, orderBy descending, limit, offset and columns", async () => {
    const { records } = await call("find", {
      table: "tasks",
      where: { $or: [{ due: { gte: 200 } }, { title: { like: "%mum%" } }], done: false },
      orderBy: ["-due", "title"],
      columns: ["title", "due"],
    });
    expect(records).toEqual([{ title: "milk", due: 300 }, { title: "mail", due: 200 }, { title: "call mum", due: null }]);
    const page = await call("find", { table: "tasks", orderBy: "due", limit: 2, offset: 1, columns: ["title"] });
    expect(page.records).toEqual([{ title: "bread" }, { title: "mail" }]);
    expect((await call("find", { table: "tasks", where: { due: { isNull: true } } })).records).toHaveLength(1);
    expect((await call("find", { table: "tasks", where: { due: { in: [100, 300] } } })).records).toHaveLength(2);
    expect((await call("find", { table: "tasks", where: { due: { in: [] } } })).records).toHaveLength(0);
    expect((await call("find", { table: "tasks", where: { due: null } })).records).toHaveLength(1);
    expect((await call("find", { table: "tasks", where: { due: { ne: null, lt: 300 } } })).records).toHaveLength(2);
  });

  test("update, delete and count report how many rows they touched", async () => {
    expect(await call("update", { table: "tasks", where: { due: { lt: 250 } }, set: { done: true } })).toEqual({ changed: 2 });
    expect(await call("count", { table: "tasks", where: { done: true } })).toEqual({ count: 2 });
    expect(await call("delete", { table: "tasks", where: { done: true } })).toEqual({ deleted: 2 });
    expect(await call("count", { table: "tasks" })).toEqual({ count: 2 });
  });

  test("a composite primary key is enforced: a duplicate is a constraint failure", async () => {
    await call("insert", { table: "lists", records: [{ owner: "ann", name: "home" }] });
    await expect(call("insert", { table: "lists", records: [{ owner: "ann", name: "home" }] }))
      .rejects.toMatchObject({ code: "E_FAILED", details: { reason: "constraint" } });
    await call("delete", { table: "lists" });
  });

  test("an insert of several records is all or nothing", async () => {
    await expect(call("insert", { table: "tasks", records: [{ title: "ok" }, { title: null }] }))
      .rejects.toMatchObject({ code: "E_FAILED", details: { reason: "constraint" } });
    expect(await call("count", { table: "tasks", where: { title: "ok" } })).toEqual({ count: 0 });
  });
});

describe("transaction", () => {
  test("runs its operations in order and returns one result each", async () => {
    const { results } = await call("transaction", {
      ops: [
        { action: "insert", table: "tasks", records: [{ title: "new", due: 50 }] },
        { action: "update", table: "tasks", where: { title: "new" }, set: { done: true } },
        { action: "find", table: "tasks", where: { title: "new" }, columns: ["done"] },
        { action: "delete", table: "tasks", where: { title: "milk" } },
        { action: "count", table: "tasks" },
      ],
    });
    expect(results).toEqual([{ inserted: 1 }, { changed: 1 }, { records: [{ done: true }] }, { deleted: 1 }, { count: 4 }]);
  });

  test("a failing operation rolls back every one before it", async () => {
    await expect(call("transaction", {
      ops: [
        { action: "delete", table: "tasks" },
        { action: "insert", table: "tasks", records: [{ title: "x", nope: 1 }] },
      ],
    })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/ops/1/records/0/nope" });
    expect(await call("count", { table: "tasks" })).toEqual({ count: 4 });
  });

  test("an op without the field its action needs is refused at its path, and no op runs", async () => {
    // The contract lists every op field as optional; each action's own type requires its fields.
    for (const [op, path] of [[{ action: "insert", table: "tasks" }, "/ops/1/records"], [{ action: "update", table: "tasks", where: {} }, "/ops/1/set"]]) {
      const error = await call("transaction", { ops: [{ action: "delete", table: "tasks" }, op] }).then(() => null, (e) => e);
      expect(error).toMatchObject({ code: "E_BAD_PARAMS", path });
      expect(error.message).toMatch(/missing required property/);
    }
    expect(await call("count", { table: "tasks" })).toEqual({ count: 4 });
  });
});

describe("bad inputs are refused with a path and a clear message", () => {
  const cases = [
    ["unknown table", "find", { table: "nope" }, "/table", /unknown table "nope"/],
    ["unknown column in where", "find", { table: "tasks", where: { nope: 1 } }, "/where/nope", /unknown column "nope"/],
    ["wrong type in where", "find", { table: "tasks", where: { due: { lt: "soon" } } }, "/where/due/lt", /expected an integer for column "due"/],
    ["unknown operator", "find", { table: "tasks", where: { due: { between: [1, 2] } } }, "/where/due/between", /unknown operator/],
    ["injection in a column name", "find", { table: "tasks", where: { "title = 1 OR 1=1 --": 1 } }, "/where/title = 1 OR 1=1 --", /unknown column/],
    ["injection in orderBy", "find", { table: "tasks", orderBy: ["title; DROP TABLE tasks"] }, "/orderBy/0", /unknown column/],
    ["injection in columns", "find", { table: "tasks", columns: ["*"] }, "/columns/0", /unknown column "\*"/],
    ["wrong type in a record", "insert", { table: "tasks", records: [{ title: 42 }] }, "/records/0/title", /expected a string/],
    ["unknown column in a record", "insert", { table: "tasks", records: [{ title: "a", owner: "x" }] }, "/records/0/owner", /unknown column "owner"/],
    ["wrong type in set", "update", { table: "tasks", set: { done: "yes" } }, "/set/done", /expected a boolean/],
    ["empty set", "update", { table: "tasks", set: {} }, "/set", /at least one column/],
    ["a bad like pattern type", "find", { table: "tasks", where: { title: { like: 5 } } }, "/where/title/like", /LIKE pattern/],
    ["a database name with a path separator", "find", { database: "../etc/passwd", table: "tasks" }, "/database", /./],
  ];
  for (const [name, action, params, path, message] of cases) {
    test(name, async () => {
      const error = await call(action, params).then(() => null, (e) => e);
      expect(error).toMatchObject({ code: "E_BAD_PARAMS", path });
      expect(error.message).toMatch(message);
    });
  }

  test("an injection attempt in a value is just a value", async () => {
    const evil = "x'); DROP TABLE tasks; --";
    await call("insert", { table: "tasks", records: [{ title: evil }] });
    expect((await call("find", { table: "tasks", where: { title: evil } })).records).toHaveLength(1);
    expect(await call("count", { table: "tasks" })).toEqual({ count: 5 });
  });

  test("an oversized value is refused", async () => {
    const big = "x".repeat(4 * 1024 * 1024 + 1);
    await expect(call("insert", { table: "tasks", records: [{ title: big }] }))
      .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/records/0/title", message: expect.stringContaining("too large") });
  });

  test("an unknown database is a failure with reason unknown_database", async () => {
    await expect(Hybrid.call("storage", "find", { database: "never", table: "t" }))
      .rejects.toMatchObject({ code: "E_FAILED", details: { reason: "unknown_database" } });
  });
});
