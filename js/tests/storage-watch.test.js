// @grants storage
// storage.watch: commit-aware change events in commit order, through Hybrid.subscribe.

const schema = { version: 1, tables: {
  tasks: { columns: { id: "INTEGER", title: "TEXT NOT NULL", done: "BOOLEAN NOT NULL DEFAULT FALSE" }, primaryKey: "id" },
  other: { columns: { x: "INTEGER" } },
} };
const call = (action, params) => Hybrid.call("storage", action, { database: "w", ...params });

beforeAll(() => call("open", { schema }));

test("a watch resolves at the next commit with the change", async () => {
  const pending = call("watch", {});
  await call("insert", { table: "tasks", records: [{ title: "milk" }] });
  const batch = await pending;
  expect(batch.events).toEqual([{ seq: batch.seq, type: "insert", table: "tasks", key: 1, record: { title: "milk", id: 1 } }]);
});

test("events after since come at once, in commit order, with update records and delete keys", async () => {
  const { seq } = await call("watch", { timeoutMs: 0 });
  await call("update", { table: "tasks", where: { id: 1 }, set: { done: true } });
  await call("delete", { table: "tasks", where: { id: 1 } });
  const batch = await call("watch", { since: seq });
  expect(batch.events.map((e) => [e.type, e.key])).toEqual([["update", 1], ["delete", 1]]);
  expect(batch.events[0].record).toEqual({ id: 1, title: "milk", done: true });
  expect(batch.events[1].seq).toBe(batch.events[0].seq + 1);
  expect(batch.seq).toBe(batch.events[1].seq);
});

test("a rolled-back transaction emits nothing", async () => {
  const { seq } = await call("watch", { timeoutMs: 0 });
  await expect(call("transaction", { ops: [
    { action: "insert", table: "tasks", records: [{ title: "ghost" }] },
    { action: "insert", table: "tasks", records: [{ title: null }] },
  ] })).rejects.toMatchObject({ code: "E_FAILED" });
  const batch = await call("watch", { since: seq, timeoutMs: 50 });
  expect(batch.events).toEqual([]);
});

test("a watch with no commit resolves empty after timeoutMs", async () => {
  const t0 = Date.now();
  const batch = await call("watch", { timeoutMs: 100 });
  expect(batch.events).toEqual([]);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(90);
});

test("tables filters events, and many watchers see the same commit", async () => {
  const watchers = Array.from({ length: 50 }, () => call("watch", { tables: ["other"] }));
  const all = call("watch", {});
  await call("insert", { table: "tasks", records: [{ title: "not for them" }] });
  await call("insert", { table: "other", records: [{ x: 7 }] });
  const batches = await Promise.all(watchers);
  for (const batch of batches) expect(batch.events.map((e) => e.table)).toEqual(["other"]);
  expect((await all).events[0].table).toBe("tasks");
});

test("an unknown table in tables is refused", async () => {
  await expect(call("watch", { tables: ["nope"] })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/tables/0" });
});

test("a watcher that fell behind the buffer gets one refresh event", async () => {
  const { seq } = await call("watch", { timeoutMs: 0 });
  const records = Array.from({ length: 10050 }, (_, i) => ({ title: `t${i}` }));
  await call("insert", { table: "tasks", records });
  const batch = await call("watch", { since: seq });
  expect(batch.events).toEqual([{ seq: batch.seq, type: "refresh", table: "*", key: null }]);
  const next = await call("watch", { since: batch.seq, timeoutMs: 0 });
  expect(next.events).toEqual([]);
});

test("Hybrid.subscribe follows seq from batch to batch", async () => {
  const seen = [];
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  const subscription = Hybrid.subscribe("storage", "watch", { database: "w", tables: ["other"] }, (batch) => {
    for (const event of batch.events) seen.push(event.record.x);
    if (seen.length >= 3) done();
  });
  for (const x of [1, 2, 3]) await call("insert", { table: "other", records: [{ x }] });
  await finished;
  subscription.stop();
  expect(seen).toEqual([1, 2, 3]);
});
