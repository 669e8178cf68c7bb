// @grants network:127.0.0.1
// The network target through the real bridge, against the test server that
// Tests/NetworkingTests starts: it runs this file as
//   hybrid test js/tests/network.test.js --arg http://127.0.0.1:PORT
// Without a server URL (plain `hybrid test js/tests`) every test here is skipped.

const base = Hybrid.args[0];
// I/O against a server: a generous timeout, so that a loaded machine slows these tests down
// rather than failing them.
const live = (name, fn) => (base ? test : test.skip)(name, fn, 60000);
const net = (action, params, options) => Hybrid.call("network", action, params, options);

live("a JSON request and its parsed JSON answer", async () => {
  const res = await net("request", { url: `${base}/echo`, json: { title: "milk", n: 2 } });
  expect(res.status).toBe(200);
  expect(res.body.method).toBe("POST");
  expect(JSON.parse(res.body.body)).toEqual({ title: "milk", n: 2 });
  expect(res.headers["content-type"]).toBe("application/json");
  expect(res.timing.totalMs).toBeGreaterThanOrEqual(0);
});

live("Uint8Array bodies travel both ways without base64", async () => {
  const bytes = new Uint8Array(4096).map((_, i) => (i * 13) & 0xff);
  const res = await net("request", { url: `${base}/echo?raw=1`, method: "PUT", bytes, responseType: "bytes",
                                     headers: { "Content-Type": "application/octet-stream" } });
  expect(res.body).toBeInstanceOf(Uint8Array);
  expect(Array.from(res.body)).toEqual(Array.from(bytes));
});

live("a 404 is an answer, not a rejection", async () => {
  const res = await net("request", { url: `${base}/status/404` });
  expect(res.status).toBe(404);
  expect(res.body).toBe("status 404");
});

live("a redirect to an ungranted host rejects with E_DENIED", async () => {
  const port = base.split(":").pop();
  await expect(net("request", { url: `${base}/redirect?to=http://localhost:${port}/echo` }))
    .rejects.toMatchObject({ code: "E_DENIED", target: "network", action: "request" });
});

live("a failed transfer rejects with E_FAILED and a reason", async () => {
  await expect(net("request", { url: "http://127.0.0.1:1/" }))
    .rejects.toMatchObject({ code: "E_FAILED", details: { reason: "connect" } });
  await expect(net("request", { url: `${base}/slow?ms=3000`, timeoutMs: 100 }))
    .rejects.toMatchObject({ code: "E_FAILED", details: { reason: "timeout" } });
});

live("the bridge's per-call timeout and AbortController end a slow request", async () => {
  await expect(net("request", { url: `${base}/slow?ms=5000` }, { timeoutMs: 100 }))
    .rejects.toMatchObject({ code: "E_TIMEOUT" });
  const controller = new AbortController();
  const pending = net("request", { url: `${base}/slow?ms=5000` }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await expect(pending).rejects.toMatchObject({ code: "E_CANCELLED" });
});

live("bad params name the field", async () => {
  await expect(net("request", { url: "ftp://example.com/x" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/url" });
  await expect(net("request", { url: `${base}/echo`, body: "a", json: {} })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/json" });
  await expect(net("download", { url: `${base}/small`, path: "../out.txt" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/path" });
});

live("a download may not write into the host's own files; beside them it lands", async () => {
  for (const path of ["patch-ledger/ledger.json", "media/../patch-ledger/ledger.json", "patches/p.json", ".kv.sqlite", "tasks.sqlite-wal"]) {
    await expect(net("download", { url: `${base}/small`, path })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/path" });
  }
  const saved = await net("download", { url: `${base}/small`, path: "media/ledger.json" });
  expect(saved).toMatchObject({ saved: true, status: 200, path: "media/ledger.json" });
});

live("identical GETs at once share one transfer", async () => {
  const name = `js-${Date.now()}`;
  const answers = await Promise.all(Array.from({ length: 8 }, () => net("request", { url: `${base}/count/${name}?ms=300` })));
  expect(answers.map((a) => a.body.hit)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
});

live("300 requests at once all answer: past the running limits they wait, they are not refused", async () => {
  const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => net("request", { url: `${base}/echo?i=${i}` })));
  expect(answers.filter((a) => a.status === 200).length).toBe(300);
  // Past 6 at once to one host (network.connectionsPerHost), calls waited, and say how long.
  expect(answers.some((a) => a.timing.queuedMs > 0)).toBe(true);
  expect(answers.every((a) => a.timing.queuedMs >= 0)).toBe(true);
});

live("cache: true answers a fresh GET from the data folder", async () => {
  const url = `${base}/cached/js-${Date.now()}?maxAge=60`;
  const first = await net("request", { url, cache: true });
  const second = await net("request", { url, cache: true });
  expect([first.cache, second.cache]).toEqual(["miss", "hit"]);
  expect(second.body).toEqual(first.body);
});

live("a download reports progress to a subscriber until it is done", async () => {
  const seen = [];
  let finished;
  const done = new Promise((resolve) => { finished = resolve; });
  const sub = Hybrid.subscribe("network", "progress", { requestId: "clip" }, (p) => {
    seen.push(p);
    if (p.state === "done" || p.state === "failed") finished();
  });
  const result = await net("download", { url: `${base}/bytes?n=200000&chunks=5&chunkMs=30`, path: "clips/a.bin", requestId: "clip" });
  await done;
  sub.stop();
  expect(result).toMatchObject({ saved: true, status: 200, bytes: 200000, path: "clips/a.bin" });
  expect(seen[seen.length - 1]).toMatchObject({ state: "done", received: 200000, total: 200000 });
  expect(seen.some((p) => p.state === "running" && p.received < 200000)).toBe(true);
});
