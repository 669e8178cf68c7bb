// Fields that name a file in the data folder, or travel in an HTTP header, are checked before
// anything is touched or sent: a name that would leave the folder (or that a C string would cut
// short at a NUL), or a header value with a line break, is E_BAD_PARAMS at its field.

const refusal = (target, action, params) => Hybrid.call(target, action, params).then(() => null, (e) => e);
const schema = { version: 1, tables: { t: { columns: { id: "INTEGER" }, primaryKey: "id" } } };
const escapes = ["../escape", "a/../../escape", "/tmp/escape", "a/b", "..", ".hidden", "a\u0000b", "a\\b"];

test("storage database names stay in the data folder", async () => {
  for (const database of escapes) {
    expect(await refusal("storage", "open", { database, schema })).toMatchObject({ code: "E_BAD_PARAMS", path: "/database" });
    expect(await refusal("storage", "find", { database, table: "t" })).toMatchObject({ code: "E_BAD_PARAMS", path: "/database" });
  }
});

test("so do the databases sync names", async () => {
  for (const database of escapes) {
    expect(await refusal("sync", "status", { database })).toMatchObject({ code: "E_BAD_PARAMS", path: "/database" });
    expect(await refusal("sync", "connect", { database, server: "http://127.0.0.1:1" }))
      .toMatchObject({ code: "E_BAD_PARAMS", path: "/database" });
  }
});

test("a sync token travels in a header: a line break or NUL in it is E_BAD_PARAMS at /token", async () => {
  await Hybrid.call("storage", "open", { database: "tasks", schema });
  for (const token of ["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\u0000b"]) {
    expect(await refusal("sync", "connect", { database: "tasks", server: "http://127.0.0.1:1", token }))
      .toMatchObject({ code: "E_BAD_PARAMS", path: "/token" });
  }
});

test("download paths stay in the data folder", async () => {
  for (const path of ["../escape.bin", "a/../../escape.bin", "/tmp/escape.bin", "a\u0000/../../escape.bin", "a/.."]) {
    expect(await refusal("network", "download", { url: "http://127.0.0.1:1/x", path })).toMatchObject({ code: "E_BAD_PARAMS", path: "/path" });
  }
});

test("download paths stay out of the host's own files: the patch ledger, the patches folder, kv and database files", async () => {
  await Hybrid.call("storage", "open", { database: "tasks", schema });
  await Hybrid.kv.set({ bucket: "prefs", key: "theme", value: "dark" });
  for (const path of ["patch-ledger/ledger.json", "media/../patch-ledger/ledger.json", "./Patch-Ledger/ledger.json", "patches/p.json",
                      ".kv.sqlite", ".kv.sqlite-wal", "tasks.sqlite", "tasks.sqlite-wal", "tasks.sqlite-shm", "tasks.sqlite-journal",
                      "Tasks.SQLite", ".http-cache/entry", "device-id"]) {
    const error = await refusal("network", "download", { url: "http://127.0.0.1:1/x", path });
    expect(error).toMatchObject({ code: "E_BAD_PARAMS", path: "/path" });
    expect(error.message).toContain("the host's own entries of the data folder");
  }
  // Below the top of the data folder such names are the app's: this download fails at the transfer.
  for (const path of ["media/patch-ledger/ledger.json", "media/.kv.sqlite", "media/tasks.sqlite"]) {
    expect(await refusal("network", "download", { url: "http://127.0.0.1:1/x", path }))
      .toMatchObject({ code: "E_FAILED", details: { reason: "connect" } });
  }
});
