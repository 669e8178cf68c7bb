// @grants network:127.0.0.1
// EventSource against the test server Tests/NetworkingTests starts (NetworkScriptTests passes its
// base URL as --arg): messages, named events, ids, retry, and a reconnection with Last-Event-ID.
// Without a server URL, only the tests that need none run.

const base = Hybrid.args[0];
const live = (name, fn) => (base ? test : test.skip)(name, fn, 60000);

test("the interface: constants, a bad URL, MessageEvent's fields", () => {
  expect([EventSource.CONNECTING, EventSource.OPEN, EventSource.CLOSED]).toEqual([0, 1, 2]);
  expect(() => new EventSource("not a url")).toThrow(/is invalid/);
  const event = new MessageEvent("message", { data: "x", lastEventId: "7", origin: "http://a.test" });
  expect([event.type, event.data, event.lastEventId, event.origin, event.ports.length]).toEqual(["message", "x", "7", "http://a.test", 0]);
});

test("MessageEvent's ports: one frozen array per event, the same at every read, made once when none were given", () => {
  const event = new MessageEvent("message");
  const ports = event.ports;
  expect([Array.isArray(ports), Object.isFrozen(ports), ports.length, event.ports === ports]).toEqual([true, true, 0, true]);
  expect(new MessageEvent("message").ports === ports).toBe(false);
  const given = new MessageEvent("message", { ports: [] });
  expect([Object.isFrozen(given.ports), given.ports.length, given.ports === given.ports]).toEqual([true, 0, true]);
  given.initMessageEvent("other", false, false, "d", "o", "i", null, []);
  expect([given.type, given.data, given.ports.length, Object.isFrozen(given.ports)]).toEqual(["other", "d", 0, true]);
  // The timeStamp of an event made by the program is the clock's, at its making.
  const before = performance.now();
  const made = new MessageEvent("message");
  expect(made.timeStamp >= before && made.timeStamp <= performance.now()).toBe(true);
  expect(new Event("x").timeStamp >= made.timeStamp).toBe(true);
});

live("messages, named events and ids arrive; a stream that ends reconnects with Last-Event-ID", async () => {
  // The Swift side counts each connection by the Last-Event-ID it carried.
  const name = Hybrid.args[1] ?? `drop-${Date.now()}`;
  const source = new EventSource(`${base}/sse/${name}?total=5&drop=2`);
  const seen = [];
  let opens = 0, errors = 0;
  source.onopen = () => { opens++; };
  source.onerror = () => { errors++; };
  const hello = new Promise((resolve) => { source.onmessage = (event) => resolve(event); });
  const ticks = new Promise((resolve) => {
    source.addEventListener("tick", (event) => {
      seen.push([event.lastEventId, event.data]);
      if (seen.length === 5) resolve();
    });
  });
  const message = await hello;
  expect(message.data).toBe("hello");
  expect(message.origin).toBe(new URL(base).origin);
  await ticks;
  source.close();
  expect(source.readyState).toBe(EventSource.CLOSED);
  expect(seen).toEqual([1, 2, 3, 4, 5].map((id) => [String(id), `line ${id}\nsecond`]));
  expect(opens).toBe(2);
  expect(errors).toBe(1);
});

live("a status other than 200, or another content type, fails the connection for good", async () => {
  for (const url of [`${base}/status/500`, `${base}/small`]) {
    const source = new EventSource(url);
    await new Promise((resolve) => { source.onerror = resolve; });
    expect(source.readyState).toBe(EventSource.CLOSED);
  }
});
