// @grants kv
// Hybrid.kv: the kv target's actions as methods, and the read cache in JS in front of get.

const stats = () => Hybrid.kv.cacheStats();

test("Hybrid.kv has every kv action as a method", async () => {
  for (const action of ["get", "getMany", "set", "setMany", "delete", "keys", "defineIndex", "query"]) {
    expect(typeof Hybrid.kv[action]).toBe("function");
  }
  await Hybrid.kv.set({ bucket: "m", key: "a", value: 1 });
  expect((await Hybrid.kv.keys({ bucket: "m" })).keys).toEqual(["a"]);
});

test("a second get of an unchanged item is a hit in JS and equals the first", async () => {
  await Hybrid.kv.set({ bucket: "hit", key: "k", value: { title: "milk", tags: ["a", "b"] }, metadata: { from: "test" } });
  const first = await Hybrid.kv.get({ bucket: "hit", key: "k" });
  const before = stats().hits;
  const second = await Hybrid.kv.get({ bucket: "hit", key: "k" });
  expect(stats().hits).toBe(before + 1);
  expect(second).toEqual(first);
  expect(second).toMatchObject({ value: { title: "milk", tags: ["a", "b"] }, metadata: { from: "test" }, expiresAt: null });
});

test("a hit hands out a copy: changing it does not change the next answer", async () => {
  await Hybrid.kv.set({ bucket: "copy", key: "k", value: { n: 1, list: [1, 2] } });
  const a = await Hybrid.kv.get({ bucket: "copy", key: "k" });
  a.value.n = 99;
  a.value.list.push(3);
  const b = await Hybrid.kv.get({ bucket: "copy", key: "k" });
  b.value.list.length = 0;
  const c = await Hybrid.kv.get({ bucket: "copy", key: "k" });
  expect(c.value).toEqual({ n: 1, list: [1, 2] });
});

test("a write that bypasses the client is never answered from the JS cache", async () => {
  await Hybrid.kv.set({ bucket: "raw", key: "k", value: "old" });
  expect((await Hybrid.kv.get({ bucket: "raw", key: "k" })).value).toBe("old");
  expect((await Hybrid.kv.get({ bucket: "raw", key: "k" })).value).toBe("old");
  await Hybrid.call("kv", "set", { bucket: "raw", key: "k", value: "new" });
  expect((await Hybrid.kv.get({ bucket: "raw", key: "k" })).value).toBe("new");
  await Hybrid.call("kv", "setMany", { bucket: "raw", items: [{ key: "k", value: "newer" }] });
  expect((await Hybrid.kv.get({ bucket: "raw", key: "k" })).value).toBe("newer");
  await Hybrid.call("kv", "delete", { bucket: "raw", key: "k" });
  expect(await Hybrid.kv.get({ bucket: "raw", key: "k" })).toBeNull();
});

test("a missing item is null, and stays null only until it is written", async () => {
  expect(await Hybrid.kv.get({ bucket: "late", key: "k" })).toBeNull();
  expect(await Hybrid.kv.get({ bucket: "late", key: "k" })).toBeNull();
  await Hybrid.kv.set({ bucket: "late", key: "k", value: 5 });
  expect((await Hybrid.kv.get({ bucket: "late", key: "k" })).value).toBe(5);
});

test("equal keys in different buckets stay apart in the cache", async () => {
  await Hybrid.kv.setMany({ bucket: "ab", items: [{ key: "c", value: "ab/c" }] });
  await Hybrid.kv.setMany({ bucket: "a", items: [{ key: "bc", value: "a/bc" }] });
  for (let i = 0; i < 2; i++) {
    expect((await Hybrid.kv.get({ bucket: "ab", key: "c" })).value).toBe("ab/c");
    expect((await Hybrid.kv.get({ bucket: "a", key: "bc" })).value).toBe("a/bc");
  }
});

test("an item expires in the JS cache as it does natively", async () => {
  await Hybrid.kv.set({ bucket: "ttl", key: "k", value: 1, ttlSeconds: 0.05 });
  expect((await Hybrid.kv.get({ bucket: "ttl", key: "k" })).value).toBe(1);
  expect((await Hybrid.kv.get({ bucket: "ttl", key: "k" })).value).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 80));
  expect(await Hybrid.kv.get({ bucket: "ttl", key: "k" })).toBeNull();
});

test("bytes come back as bytes, a copy each time", async () => {
  await Hybrid.kv.set({ bucket: "b", key: "img", value: new Uint8Array([0, 1, 255]) });
  const first = (await Hybrid.kv.get({ bucket: "b", key: "img" })).value;
  first[0] = 7;
  expect((await Hybrid.kv.get({ bucket: "b", key: "img" })).value).toEqual(new Uint8Array([0, 1, 255]));
});

test("bad params are refused by the contract, as through Hybrid.call", async () => {
  await expect(Hybrid.kv.get({ bucket: 5, key: "k" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/bucket" });
  await expect(Hybrid.kv.get({ bucket: "b" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/key" });
  await expect(Hybrid.kv.get({ bucket: "b", key: "k" }, { timeoutMs: -1 })).rejects.toMatchObject({ code: "E_BAD_PARAMS" });
  // Also for an item the JS cache holds: a hit is no way around the contract.
  await Hybrid.kv.set({ bucket: "strict", key: "k", value: 1 });
  expect((await Hybrid.kv.get({ bucket: "strict", key: "k" })).value).toBe(1);
  await expect(Hybrid.kv.get({ bucket: "strict", key: "k", extra: true })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/extra" });
});

test("the cache stays within its bound, and a bound of 0 turns it off", async () => {
  await Hybrid.kv.setMany({ bucket: "bound", items: Array.from({ length: 50 }, (_, i) => ({ key: "k" + i, value: "x".repeat(100) })) });
  Hybrid.kv.setCacheCapacity(4000);
  for (let i = 0; i < 50; i++) await Hybrid.kv.get({ bucket: "bound", key: "k" + i });
  expect(stats().size).toBeLessThanOrEqual(4000);
  expect(stats().entries).toBeGreaterThan(0);
  Hybrid.kv.setCacheCapacity(0);
  expect(stats().entries).toBe(0);
  const hits = stats().hits;
  await Hybrid.kv.get({ bucket: "bound", key: "k1" });
  await Hybrid.kv.get({ bucket: "bound", key: "k1" });
  expect(stats().hits).toBe(hits);
  expect(() => Hybrid.kv.setCacheCapacity(-1)).toThrow("expected a number of units >= 0");
  Hybrid.kv.setCacheCapacity(32 * 1024 * 1024);
});

test("under pressure, the item read again and again stays and one read once goes", async () => {
  await Hybrid.kv.setMany({ bucket: "lru", items: Array.from({ length: 40 }, (_, i) => ({ key: "k" + i, value: "x".repeat(100) })) });
  Hybrid.kv.setCacheCapacity(3000);
  for (let i = 0; i < 10; i++) await Hybrid.kv.get({ bucket: "lru", key: "k" + i });
  for (let i = 10; i < 40; i++) {
    await Hybrid.kv.get({ bucket: "lru", key: "k" + i });
    await Hybrid.kv.get({ bucket: "lru", key: "k0" });
  }
  expect(stats().size).toBeLessThanOrEqual(3000);
  const hits = stats().hits;
  expect((await Hybrid.kv.get({ bucket: "lru", key: "k0" })).value).toBe("x".repeat(100));
  expect(stats().hits).toBe(hits + 1);
  expect((await Hybrid.kv.get({ bucket: "lru", key: "k1" })).value).toBe("x".repeat(100));
  expect(stats().hits).toBe(hits + 1);
  Hybrid.kv.setCacheCapacity(32 * 1024 * 1024);
});

test("a __proto__ key in a value stays data in a hit, and pollutes no prototype", async () => {
  await Hybrid.kv.set({ bucket: "proto", key: "k", value: JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') });
  await Hybrid.kv.get({ bucket: "proto", key: "k" });
  const hits = stats().hits;
  const entry = await Hybrid.kv.get({ bucket: "proto", key: "k" });
  expect(stats().hits).toBe(hits + 1);
  expect(Object.getPrototypeOf(entry.value)).toBe(Object.prototype);
  expect(Object.keys(entry.value)).toEqual(["__proto__", "a"]);
  expect(entry.value.polluted).toBeUndefined();
  expect(({}).polluted).toBeUndefined();
});

test("a miss arrives as written, read from the stored row's text: values, metadata, a __proto__ key", async () => {
  const cases = [
    { value: 1, metadata: true },
    { value: "quote \" back \\ line\n é 😀 \u2028", metadata: false },
    { value: [1.5, null, [true]], metadata: { from: "test", n: [1e-7] } },
    { value: JSON.parse('{"__proto__": {"polluted": true}, "a": 1e300}'), metadata: "m" },
    { value: null, metadata: 2.5 },
  ];
  for (const [i, item] of cases.entries()) await Hybrid.kv.set({ bucket: "rows", key: "k" + i, ...item });
  for (const [i, item] of cases.entries()) {
    const misses = stats().misses;
    const entry = await Hybrid.kv.get({ bucket: "rows", key: "k" + i });
    expect(stats().misses).toBe(misses + 1);
    expect(entry.value).toEqual(item.value);
    expect(entry.metadata).toEqual(item.metadata);
    expect(entry).toEqual(await Hybrid.call("kv", "get", { bucket: "rows", key: "k" + i }));
  }
  const proto = (await Hybrid.kv.get({ bucket: "rows", key: "k3" })).value;
  expect(Object.keys(proto)).toEqual(["__proto__", "a"]);
  expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
  expect(({}).polluted).toBeUndefined();
});

test("keys with quotes, backslashes and other scripts are found, and a lone surrogate is refused at /key", async () => {
  const key = 'q"u\\o \u2028 é 😀 /k';
  await Hybrid.kv.set({ bucket: "b\"\\", key, value: "found" });
  expect((await Hybrid.kv.get({ bucket: "b\"\\", key })).value).toBe("found");
  await expect(Hybrid.kv.get({ bucket: "b", key: "a\ud800" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/key" });
  await expect(Hybrid.call("kv", "get", { bucket: "b", key: "a\ud800" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/key" });
});

test("gets issued in one turn are read together and each gets its own answer, in any mix", async () => {
  await Hybrid.kv.setMany({ bucket: "turn", items: Array.from({ length: 300 }, (_, i) => ({ key: "k" + i, value: { i } })) });
  await Hybrid.kv.set({ bucket: "turn", key: "bytes", value: new Uint8Array([1, 2, 3]) });
  const keys = [...Array.from({ length: 300 }, (_, i) => "k" + i), "absent", "k7", "bytes"];
  const misses = stats().misses;
  const entries = await Promise.all(keys.map((key) => Hybrid.kv.get({ bucket: "turn", key })));
  expect(stats().misses).toBe(misses + keys.length);
  for (let i = 0; i < 300; i++) expect(entries[i].value).toEqual({ i });
  expect(entries[300]).toBeNull();
  expect(entries[301]).toEqual(entries[7]);
  expect(entries[301]).not.toBe(entries[7]);
  expect(entries[302].value).toEqual(new Uint8Array([1, 2, 3]));
  // All of them are cached now.
  const hits = stats().hits;
  await Promise.all(keys.map((key) => Hybrid.kv.get({ bucket: "turn", key })));
  expect(stats().hits).toBe(hits + keys.length);
});

test("a get the contract refuses fails alone; the others read in the same turn still answer", async () => {
  await Hybrid.kv.set({ bucket: "alone", key: "good", value: 1 });
  const outcomes = await Promise.allSettled([
    Hybrid.kv.get({ bucket: "alone", key: "good" }),
    Hybrid.kv.get({ bucket: "alone", key: "x".repeat(10001) }),
    Hybrid.kv.get({ bucket: "alone", key: "" }),
    Hybrid.kv.get({ bucket: "alone", key: "missing" }),
  ]);
  expect(outcomes[0].value.value).toBe(1);
  expect(outcomes[1].reason).toMatchObject({ code: "E_BAD_PARAMS", action: "get", path: "/key" });
  expect(outcomes[2].reason).toMatchObject({ code: "E_BAD_PARAMS", action: "get", path: "/key" });
  expect(outcomes[3].value).toBeNull();
});

test("a get issued after a write resolved never gets the value it replaced, even read in a batch", async () => {
  await Hybrid.kv.setMany({ bucket: "fresh", items: [{ key: "a", value: "old" }, { key: "b", value: "old" }] });
  expect((await Promise.all([Hybrid.kv.get({ bucket: "fresh", key: "a" }), Hybrid.kv.get({ bucket: "fresh", key: "b" })])).map((e) => e.value)).toEqual(["old", "old"]);
  await Hybrid.call("kv", "set", { bucket: "fresh", key: "a", value: "new" });
  const [a, b] = await Promise.all([Hybrid.kv.get({ bucket: "fresh", key: "a" }), Hybrid.kv.get({ bucket: "fresh", key: "b" })]);
  expect(a.value).toBe("new");
  expect(b.value).toBe("old");
});

test("kv.getMany answers in the order asked, null for what is missing, and names a bad item", async () => {
  await Hybrid.kv.setMany({ bucket: "many", items: [{ key: "a", value: 1, metadata: { m: true } }, { key: "b", value: new Uint8Array([9]) }] });
  const { entries } = await Hybrid.call("kv", "getMany", { items: [{ bucket: "many", key: "b" }, { bucket: "many", key: "none" }, { bucket: "many", key: "a" }] });
  expect(entries.length).toBe(3);
  expect(entries[0].value).toEqual(new Uint8Array([9]));
  expect(entries[1]).toBeNull();
  expect(entries[2]).toMatchObject({ value: 1, metadata: { m: true }, expiresAt: null });
  expect((await Hybrid.kv.getMany({ items: [{ bucket: "many", key: "a" }] })).entries[0].value).toBe(1);
  await expect(Hybrid.call("kv", "getMany", { items: [{ bucket: "many", key: "a" }, { bucket: "many" }] }))
    .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/items/1/key" });
});
