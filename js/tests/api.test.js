// @grants network:127.0.0.1
// Hybrid.api's declared APIs through the real bridge, against the test server that
// Tests/NetworkingTests starts (NetworkScriptTests runs this file with its base URL as --arg).
// Without a server URL every test here is skipped.

const base = Hybrid.args[0];
const live = (name, fn) => (base ? test : test.skip)(name, fn, 60000);

const declareItems = (paging, extra = {}) => Hybrid.api.declare({
  name: "items",
  url: `${base}/items`,
  params: { type: "object", properties: { status: { enum: ["open", "done"] } }, additionalProperties: false },
  paging,
  reformer: (answer) => answer.body.items,
  ...extra,
});

live("page paging: load, then loadNext until a short page, then null", async () => {
  const items = declareItems({ style: "page", size: 20 });
  expect(await items.load({ status: "open" })).toEqual(Array.from({ length: 20 }, (_, i) => i));
  expect(items.hasMore).toBe(true);
  expect((await items.loadNext())[0]).toBe(20);
  expect(await items.loadNext()).toEqual([40, 41, 42, 43, 44]);
  expect(items.hasMore).toBe(false);
  expect(await items.loadNext()).toBe(null);
});

live("offset and cursor paging walk the same items", async () => {
  const byOffset = declareItems({ style: "offset", size: 15 });
  const byCursor = declareItems({ style: "cursor", next: (answer) => answer.body.next });
  const all = async (api) => {
    const seen = [...await api.load()];
    for (let page = await api.loadNext(); page !== null; page = await api.loadNext()) seen.push(...page);
    return seen;
  };
  const expected = Array.from({ length: 45 }, (_, i) => i);
  expect(await all(byOffset)).toEqual(expected);
  expect(await all(byCursor)).toEqual(expected);
});

live("params are checked by the contract validator before anything is sent", async () => {
  const items = declareItems({ style: "page" });
  await expect(items.load({ status: "lost" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/status" });
  await expect(items.load({ colour: "red" })).rejects.toMatchObject({ code: "E_BAD_PARAMS" });
  expect(() => Hybrid.api.declare({ name: "x", url: "ftp://nope" })).toThrow(/url: expected an http or https URL template/);
  expect(() => Hybrid.api.declare({ name: "x", url: `${base}/items`, paging: { style: "cursor" } })).toThrow(/paging.next/);
});

live("URL templates take their params; a 4xx answer rejects with its status", async () => {
  const status = Hybrid.api.declare({ name: "status", url: `${base}/status/{code}`, responseType: "text" });
  await expect(status.load({ code: 418 })).rejects.toMatchObject({ code: "E_FAILED", details: { reason: "status", status: 418 } });
  await expect(status.load({})).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/code" });
});

live("the owner's signal cancels the call in flight and refuses later ones; a new load cancels the last", async () => {
  const owner = new AbortController();
  const slow = Hybrid.api.declare({ name: "slow", url: `${base}/slow?ms=5000`, responseType: "text" }, { signal: owner.signal });
  const first = slow.load();
  const second = slow.load();
  await expect(first).rejects.toMatchObject({ code: "E_CANCELLED" });
  expect(slow.loading).toBe(true);
  owner.abort(new Error("the screen closed"));
  await expect(second).rejects.toMatchObject({ code: "E_CANCELLED" });
  await expect(slow.load()).rejects.toThrow("the screen closed");
});
