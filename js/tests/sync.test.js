// @grants storage,sync,network:127.0.0.1
// The sync target through the real bridge, against a reference server that Tests/SyncTests
// starts: it runs this file as
//   hybrid test js/tests/sync.test.js --arg http://127.0.0.1:PORT
// (or start one yourself: hybrid sync-server --port 8390 --db /tmp/sync.sqlite --insecure-no-auth).
// Without a server URL every test here is skipped. The files' tests share one data folder, so
// each uses databases of its own where it needs a fresh start.

const server = Hybrid.args[0];
// I/O against a server: a generous timeout, so that a loaded machine slows these tests down
// rather than failing them.
const live = (name, fn) => (server ? test : test.skip)(name, fn, 60000);
const storage = (action, params) => Hybrid.call("storage", action, { database: "tasks", ...params });
const sync = (action, params) => Hybrid.call("sync", action, { database: "tasks", ...params });

const schema = {
  version: 1,
  tables: {
    tasks: { columns: { id: "TEXT NOT NULL", title: "TEXT", done: "BOOLEAN NOT NULL DEFAULT 0", due: "INTEGER" }, primaryKey: "id", sync: { mode: "twoWay" } },
    chat: { columns: { id: "TEXT NOT NULL", body: "TEXT" }, primaryKey: "id", sync: { mode: "oneWay" } },
  },
};

live("connect registers the device once; run pushes local writes", async () => {
  await storage("open", { schema });
  const first = await sync("connect", { server });
  expect(first.registered).toBe(true);
  expect(await sync("connect", { server })).toMatchObject({ registered: false, deviceId: first.deviceId });
  await storage("insert", { table: "tasks", records: [{ id: "t1", title: "milk", due: 5 }, { id: "t2", title: "bread", due: 50 }] });
  await storage("update", { table: "tasks", where: { due: { lt: 10 } }, set: { done: true } });
  await storage("insert", { table: "chat", records: [{ id: "c1", body: "hello" }] });
  expect((await sync("status")).pending).toBe(4);
  const run = await sync("run");
  expect(run).toMatchObject({ pushed: 4, failed: 0, held: 0 });
  const again = await sync("run");
  expect(again.pulled).toBe(4);
  expect(await sync("status")).toMatchObject({ connected: true, pending: 0, acknowledged: 0, failed: [], conflicts: 0 });
  const rows = (await storage("find", { table: "tasks", orderBy: "id" })).records;
  expect(rows).toEqual([{ id: "t1", title: "milk", done: true, due: 5 }, { id: "t2", title: "bread", done: false, due: 50 }]);
});

live("watch answers when a run changes the sync state", async () => {
  await storage("open", { schema });
  await sync("connect", { server });
  const seen = [];
  const sub = Hybrid.subscribe("sync", "watch", { database: "tasks", timeoutMs: 2000 }, (w) => { seen.push(w); });
  await storage("insert", { table: "tasks", records: [{ id: "w1", title: "watched" }] });
  await sync("run");
  // The watch answers after the run's commit, on its own turn: wait for it (a bound for a loaded
  // machine, not a figure; 50 ms was not always enough under a full make test).
  const settled = () => seen.length > 0 && seen[seen.length - 1].status.pending === 0;
  for (const deadline = Date.now() + 10000; !settled() && Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 20));
  }
  sub.stop();
  expect(seen.length).toBeGreaterThan(0);
  expect(seen[seen.length - 1].status.pending).toBe(0);
});

live("bad params and unsynced databases are refused clearly", async () => {
  await expect(sync("run", { database: "nope" })).rejects.toMatchObject({ code: "E_FAILED", details: { reason: "unknown_database" } });
  await storage("open", { database: "plain", schema: { version: 1, tables: { t: { columns: { id: "TEXT" } } } } });
  await expect(sync("run", { database: "plain" })).rejects.toMatchObject({ code: "E_FAILED", details: { reason: "not_synced" } });
  await storage("open", { database: "fresh", schema });
  await expect(sync("run", { database: "fresh" })).rejects.toMatchObject({ code: "E_FAILED", details: { reason: "not_connected" } });
  await expect(sync("connect", { server: "ftp://x" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/server" });
  await expect(sync("resolve", { conflictId: "none", keep: "local" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/conflictId" });
  await expect(storage("open", { database: "bad", schema: { version: 1, tables: { t: { columns: { id: "INTEGER" }, primaryKey: "id", sync: { mode: "twoWay" } } } } }))
    .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/schema/tables/t/primaryKey" });
});

live("a synced row's key is required and cannot change", async () => {
  await storage("open", { schema });
  await expect(storage("insert", { table: "tasks", records: [{ title: "no id" }] })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/records/0/id" });
  await storage("insert", { table: "tasks", records: [{ id: "k1", title: "x" }] });
  await expect(storage("update", { table: "tasks", where: { id: "k1" }, set: { id: "k2" } })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/set/id" });
});
