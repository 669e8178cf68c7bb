// @grants network:127.0.0.1
// The offline queue (network.enqueue, queueStatus, queueWatch, queueRetry, queueCancel) as JS
// sees it. Tests/NetworkingTests runs this file against its test server as
//   hybrid test js/tests/network-queue.test.js --arg http://127.0.0.1:PORT
// Without a server URL the tests that need one are skipped; the others use a port nobody
// listens on (9, discard), where a request stays pending.

const base = Hybrid.args[0];
const live = (name, fn) => (base ? test : test.skip)(name, fn, 60000);
const net = (action, params) => Hybrid.call("network", action, params);
const nowhere = "http://127.0.0.1:9/nowhere";

// Follows queueWatch from `after` until `count` items of `queue` have finished.
async function finished(queue, count, after = 0) {
  const items = [];
  while (items.length < count) {
    const answer = await net("queueWatch", { queue, after, timeoutMs: 5000 });
    items.push(...answer.items);
    after = answer.cursor;
  }
  return { items, cursor: after };
}

test("enqueue answers with the item's id, its place in line and its Idempotency-Key", async () => {
  const first = await net("enqueue", { queue: "shape", request: { url: nowhere, json: { n: 1 } } });
  const second = await net("enqueue", { queue: "shape", request: { url: nowhere, method: "PUT", body: "two",
                                                                    headers: { "Idempotency-Key": "mine-2" } } });
  expect(first).toEqual({ id: first.id, queue: "shape", position: 1, idempotencyKey: first.idempotencyKey });
  expect(first.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(second.position).toBe(2);
  expect(second.id).toBeGreaterThan(first.id);
  expect(second.idempotencyKey).toBe("mine-2");
}, 60000); // the first enqueue opens the queue's SQLite store: past 5 s on a loaded machine

test("an unreachable server leaves the head pending with why; cancel removes what is not being sent", async () => {
  await net("enqueue", { queue: "down", request: { url: nowhere, body: "a" } });
  await net("enqueue", { queue: "down", request: { url: nowhere, body: "b" } });
  let status;
  // Polled for up to 30 s: on a busy machine the first attempt may take a while.
  for (let i = 0; i < 600; i++) {
    status = await net("queueStatus", { queue: "down" });
    if (status.items[0].lastError) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(status.queues.down.pending + status.queues.down.sending).toBe(2);
  expect(status.queues.down.delivered).toBe(0);
  expect(status.items[0].lastError).toContain("connect");
  expect(status.items[0].attempts).toBeGreaterThanOrEqual(1);
  expect(status.items[1]).toMatchObject({ state: "pending", attempts: 0, url: nowhere });
  const { cancelled } = await net("queueCancel", { queue: "down", id: status.items[1].id });
  expect(cancelled).toEqual([status.items[1].id]);
  expect((await net("queueStatus", { queue: "down" })).items.length).toBe(1);
}, 60000);

test("what makes no sense offline is E_BAD_PARAMS naming the field", async () => {
  await expect(net("enqueue", { queue: "bad", request: { url: nowhere, cache: true } }))
    .rejects.toMatchObject({ code: "E_BAD_PARAMS" });
  await expect(net("enqueue", { queue: "bad", request: { url: nowhere, body: "a", json: 1 } }))
    .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/request/json" });
  await expect(net("enqueue", { queue: "bad", request: { url: "http://example.com/" } }))
    .rejects.toMatchObject({ code: "E_DENIED" });
  await expect(net("queueWatch", { timeoutMs: 0 })).resolves.toMatchObject({ items: [] });
});

live("delivered in order with the Idempotency-Key; a 4xx fails with its answer, the queue moves on; retry puts it back", async () => {
  const sent = [];
  for (const n of [1, 2, 3]) {
    const request = n === 2 ? { url: `${base}/status/422`, responseType: "text" }
                            : { url: `${base}/echo`, json: { n }, responseType: "json" };
    sent.push(await net("enqueue", { queue: "live", request }));
  }
  const { items, cursor } = await finished("live", 3);
  expect(items.map((item) => [item.id, item.state, item.status])).toEqual([
    [sent[0].id, "delivered", 200], [sent[1].id, "failed", 422], [sent[2].id, "delivered", 200]]);
  expect(JSON.parse(items[0].body.body)).toEqual({ n: 1 });
  const received = Object.entries(items[0].body.headers).find(([name]) => name.toLowerCase() === "idempotency-key");
  expect(received?.[1]).toBe(sent[0].idempotencyKey);
  expect(items[1].body).toBe("status 422");
  expect(items[1].headers["content-type"]).toBe("text/plain");
  expect(items[2].seq).toBeGreaterThan(items[0].seq);

  expect(await net("queueRetry", { queue: "live" })).toEqual({ retried: [sent[1].id] });
  const again = await finished("live", 1, cursor);
  expect(again.items[0]).toMatchObject({ id: sent[1].id, state: "failed", status: 422, attempts: 1 });
  expect(again.cursor).toBeGreaterThan(cursor);
});
