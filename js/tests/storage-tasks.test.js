// @grants storage
// The sample app's business DataCenter (js/apps/tasks/task-center.js) against the real service.
const { TaskCenter } = require("../apps/tasks/task-center");

const center = new TaskCenter("tasks-test");
beforeAll(() => center.open());

test("a new database opens at the schema's version", async () => {
  expect(await center.open()).toBe(2);
});

test("tasks are added to lists and listed by urgency", async () => {
  expect(await center.add("home", [{ title: "b", due: 20 }, { title: "a", due: 10, priority: 1 }, { title: "c", due: 5 }])).toBe(3);
  expect((await center.open_("home")).map((t) => t.title)).toEqual(["a", "c", "b"]);
});

test("completing everything due before a time is one atomic operation", async () => {
  await center.add("work", [{ title: "w", due: 100 }]);
  expect(await center.completeAllBefore(15)).toEqual({ completed: 2, remaining: 2 });
  expect(await center.summary()).toEqual([{ list: "home", open: 1, done: 2 }, { list: "work", open: 1, done: 0 }]);
});

test("a database made by version 1 of the app is migrated to version 2", async () => {
  await Hybrid.call("storage", "open", { database: "old", schema: { version: 1, tables: {
    tasks: { columns: { id: "INTEGER", title: "TEXT NOT NULL", done: "BOOLEAN NOT NULL DEFAULT FALSE", due: "INTEGER", tags: "JSON" }, primaryKey: "id", indexes: [{ columns: ["due"] }] },
  } } });
  await Hybrid.call("storage", "insert", { database: "old", table: "tasks", records: [{ title: "from v1" }] });
  const old = new TaskCenter("old");
  expect(await old.open()).toBe(2);
  await old.call("insert", { table: "lists", records: [{ id: 1, name: "inbox", createdAt: 0 }] });
  expect((await old.open_("inbox")).map((t) => [t.title, t.priority])).toEqual([["from v1", 0]]);
});
