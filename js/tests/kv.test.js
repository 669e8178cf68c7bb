// @grants kv
// The kv target through the real bridge.

const kv = (action, params) => Hybrid.call("kv", action, params);

test("set then get returns the value, metadata and times; a missing key is null", async () => {
  const before = Date.now();
  const written = await kv("set", { bucket: "feed", key: "1000", value: { title: "hi", at: 17 }, metadata: { source: "server" } });
  expect(written.createdAt).toBeGreaterThanOrEqual(before - 1);
  const entry = await kv("get", { bucket: "feed", key: "1000" });
  expect(entry).toMatchObject({ value: { title: "hi", at: 17 }, metadata: { source: "server" }, expiresAt: null });
  expect(entry.updatedAt).toBe(written.updatedAt);
  expect(await kv("get", { bucket: "feed", key: "nope" })).toBeNull();
});

test("buckets keep equal keys apart", async () => {
  await kv("set", { bucket: "feed", key: "1", value: "a feed" });
  await kv("set", { bucket: "comment", key: "1", value: "a comment" });
  expect((await kv("get", { bucket: "feed", key: "1" })).value).toBe("a feed");
  expect((await kv("get", { bucket: "comment", key: "1" })).value).toBe("a comment");
});

test("a second set replaces the value, keeps createdAt, and the cache never serves the old one", async () => {
  const first = await kv("set", { bucket: "c", key: "k", value: 1 });
  expect((await kv("get", { bucket: "c", key: "k" })).value).toBe(1);
  await new Promise((r) => setTimeout(r, 5));
  await kv("set", { bucket: "c", key: "k", value: 2 });
  const entry = await kv("get", { bucket: "c", key: "k" });
  expect(entry.value).toBe(2);
  expect(entry.createdAt).toBe(first.createdAt);
  expect(await kv("delete", { bucket: "c", key: "k" })).toEqual({ deleted: true });
  expect(await kv("get", { bucket: "c", key: "k" })).toBeNull();
  expect(await kv("delete", { bucket: "c", key: "k" })).toEqual({ deleted: false });
});

test("bytes come back as bytes", async () => {
  await kv("set", { bucket: "b", key: "img", value: new Uint8Array([0, 1, 255]) });
  expect((await kv("get", { bucket: "b", key: "img" })).value).toEqual(new Uint8Array([0, 1, 255]));
});

test("setMany writes all items in one transaction; keys lists them with a prefix", async () => {
  const items = Array.from({ length: 100 }, (_, i) => ({ key: `user:${String(i).padStart(3, "0")}`, value: { i } }));
  expect(await kv("setMany", { bucket: "users", items: [...items, { key: "other", value: 0 }] })).toEqual({ written: 101 });
  const { keys } = await kv("keys", { bucket: "users", prefix: "user:" });
  expect(keys).toHaveLength(100);
  expect(keys[0]).toBe("user:000");
  expect((await kv("keys", { bucket: "users", limit: 2 })).keys).toEqual(["other", "user:000"]);
});

test("a setMany item takes the call's bucket, and one with no bucket anywhere is refused at its path", async () => {
  expect(await kv("setMany", { bucket: "shared", items: [{ key: "a", value: 1 }, { bucket: "own", key: "b", value: 2 }] })).toEqual({ written: 2 });
  expect((await kv("get", { bucket: "shared", key: "a" })).value).toBe(1);
  expect((await kv("get", { bucket: "own", key: "b" })).value).toBe(2);
  const error = await kv("setMany", { items: [{ bucket: "own", key: "c", value: 3 }, { key: "d", value: 4 }] }).then(() => null, (e) => e);
  expect(error).toMatchObject({ code: "E_BAD_PARAMS", path: "/items/1/bucket" });
  expect(error.message).toMatch(/here or for the whole call/);
  expect(await kv("get", { bucket: "own", key: "c" })).toBeNull();
});

test("setMany is all or nothing", async () => {
  const big = "x".repeat(4 * 1024 * 1024 + 10);
  await expect(kv("setMany", { bucket: "atomic", items: [{ key: "a", value: 1 }, { key: "b", value: big }] }))
    .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/items/1/value" });
  expect(await kv("get", { bucket: "atomic", key: "a" })).toBeNull();
});

test("an expired item is gone from get, keys and query", async () => {
  await kv("set", { bucket: "ttl", key: "short", value: 1, ttlSeconds: 0.05 });
  await kv("set", { bucket: "ttl", key: "long", value: 2, ttlSeconds: 60 });
  expect((await kv("get", { bucket: "ttl", key: "short" })).value).toBe(1);
  await new Promise((r) => setTimeout(r, 80));
  expect(await kv("get", { bucket: "ttl", key: "short" })).toBeNull();
  expect((await kv("keys", { bucket: "ttl" })).keys).toEqual(["long"]);
});

describe("indexes and queries", () => {
  beforeAll(async () => {
    await kv("setMany", { bucket: "tasks", items: [
      { key: "a", value: { due: 300, title: "milk", done: false } },
      { key: "b", value: { due: 100, title: "bread", done: true } },
    ] });
    expect(await kv("defineIndex", { bucket: "tasks", columns: { due: "INTEGER", done: "BOOLEAN" }, from: "value" })).toEqual({ indexed: 2 });
    await kv("set", { bucket: "tasks", key: "c", value: { due: 200, title: "mail", done: false }, metadata: { from: "x" } });
  });

  test("query filters and orders by index columns and returns key, value and metadata", async () => {
    const { items } = await kv("query", { bucket: "tasks", where: { done: false }, orderBy: "-due" });
    expect(items.map((i) => i.key)).toEqual(["a", "c"]);
    expect(items[1]).toEqual({ key: "c", value: { due: 200, title: "mail", done: false }, metadata: { from: "x" } });
    const { items: few } = await kv("query", { bucket: "tasks", where: { due: { lt: 250 } }, orderBy: ["due"], limit: 1 });
    expect(few.map((i) => i.key)).toEqual(["b"]);
  });

  test("a deleted or updated item leaves or moves in the index", async () => {
    await kv("set", { bucket: "tasks", key: "a", value: { due: 50, done: true } });
    await kv("delete", { bucket: "tasks", key: "c" });
    const { items } = await kv("query", { bucket: "tasks", orderBy: "due" });
    expect(items.map((i) => i.key)).toEqual(["a", "b"]);
  });

  test("a different definition rebuilds the index from the stored items", async () => {
    expect(await kv("defineIndex", { bucket: "tasks", columns: { title: "TEXT" }, from: { title: "value.title" } })).toEqual({ indexed: 2 });
    const { items } = await kv("query", { bucket: "tasks", where: { title: { like: "br%" } } });
    expect(items.map((i) => i.key)).toEqual(["b"]);
  });

  test("bad queries name the field", async () => {
    await expect(kv("query", { bucket: "noindex", where: {} })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/bucket" });
    await expect(kv("query", { bucket: "tasks", where: { "title; --": 1 } })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/where/title; --" });
    await expect(kv("query", { bucket: "tasks", where: { title: 5 } })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/where/title" });
    await expect(kv("query", { bucket: "tasks", orderBy: "nope" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/orderBy" });
    await expect(kv("defineIndex", { bucket: "t", columns: { "a b": "TEXT" }, from: "value" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/columns/a b" });
    await expect(kv("defineIndex", { bucket: "t", columns: { a: "TEXT" }, from: "body.a" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/from" });
    await expect(kv("defineIndex", { bucket: "t", columns: { a: "TEXT; DROP" }, from: "value" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/columns/a" });
  });
});

test("an oversized value is refused", async () => {
  await expect(kv("set", { bucket: "big", key: "k", value: "x".repeat(4 * 1024 * 1024 + 1) }))
    .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/value", message: expect.stringContaining("too large") });
});

test("wrong types are refused by the contract before dispatch", async () => {
  await expect(kv("set", { bucket: "b", key: 5, value: 1 })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/key" });
  await expect(kv("get", { bucket: "b" })).rejects.toMatchObject({ code: "E_BAD_PARAMS" });
});
