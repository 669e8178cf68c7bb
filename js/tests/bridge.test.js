// The bridge as an app sees it: round trips, every error code reachable with the
// built-in targets, timeouts, cancellation, the contracts and subscriptions.
// (E_FAILED and E_SHUTDOWN need a service that fails or a host that stops mid-call: the Swift
// suite BridgeDispatchTests reaches them from JS through a test service.)

const error = (code, target, action, extra = {}) => ({ code, target, action, ...extra });

// A call made from inside a task that answered a bridge call, followed by a synchronous wait
// longer than its timeout: its timer is due before the worker's answer can be handled.
async function callThatTimesOut(target, action, params, timeoutMs) {
  await Hybrid.call("device", "id", {});
  const promise = Hybrid.call(target, action, params, { timeoutMs });
  const until = Date.now() + timeoutMs + 20;
  while (Date.now() < until) { /* keep the JS thread busy past the deadline */ }
  return promise;
}

describe("round trips", () => {
  test("echo returns JSON values unchanged", async () => {
    const params = { s: "text", n: 1.5, i: -3, t: true, f: false, z: null, list: [1, "two", [3]], nested: { a: { b: { c: 1 } } } };
    await expect(Hybrid.call("bridge", "echo", params)).resolves.toEqual(params);
  });

  test("unicode and emoji survive", async () => {
    const params = { text: "héllo 中文 😀 👩‍👩‍👧 🇵🇹", key: { "ключ": "значение" } };
    await expect(Hybrid.call("bridge", "echo", params)).resolves.toEqual(params);
  });

  test("key order is kept", async () => {
    const answer = await Hybrid.call("bridge", "echo", { zeta: 1, alpha: 2, mid: 3 });
    expect(Object.keys(answer)).toEqual(["zeta", "alpha", "mid"]);
  });

  test("Uint8Array and ArrayBuffer come back as Uint8Array with the same bytes", async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const answer = await Hybrid.call("bridge", "echo", { bytes, buffer: bytes.buffer, part: bytes.subarray(10, 13), empty: new Uint8Array(0) });
    expect(answer.bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(answer.bytes)).toEqual(Array.from(bytes));
    expect(answer.buffer).toBeInstanceOf(Uint8Array);
    expect(answer.buffer.length).toBe(256);
    expect(Array.from(answer.part)).toEqual([10, 11, 12]);
    expect(answer.empty.length).toBe(0);
  });

  test("NaN and Infinity become null, undefined members are dropped, as JSON.stringify does", async () => {
    const answer = await Hybrid.call("bridge", "echo", { nan: NaN, inf: Infinity, gone: undefined, list: [undefined, NaN] });
    expect(answer).toStrictEqual({ nan: null, inf: null, list: [null, null] });
  });

  // Plain params (strings, numbers, booleans, null, plain objects) cross as JSON text, the rest
  // are walked: what arrives must not depend on which.
  test("params written as text arrive as walked params do", async () => {
    const plain = { s: "a\u0000b\n\"\\ é 😀", zero: 0, big: 1e21, tiny: 5e-324, frac: 0.1, t: true, z: null, o: { p: { q: "deep" } } };
    await expect(Hybrid.call("bridge", "echo", plain)).resolves.toStrictEqual(plain);
    const negative = await Hybrid.call("bridge", "echo", { n: -0, inner: { n: -0 } });
    expect(Object.is(negative.n, -0) && Object.is(negative.inner.n, -0)).toBe(true);
    const keyed = Object.create(null);
    keyed.__proto__ = "data";
    keyed["a\"b"] = 1;
    const echoed = await Hybrid.call("bridge", "echo", { keyed });
    expect(Object.getOwnPropertyNames(echoed.keyed)).toEqual(["__proto__", "a\"b"]);
    expect(echoed.keyed.__proto__).toBe("data");
    const many = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, i]));
    await expect(Hybrid.call("bridge", "echo", many)).resolves.toStrictEqual(many);
    const deeper = { a: { b: { c: { d: { e: "five levels" } } } } };
    await expect(Hybrid.call("bridge", "echo", deeper)).resolves.toStrictEqual(deeper);
    const long = { text: "x".repeat(5000) + "😀" };
    await expect(Hybrid.call("bridge", "echo", long)).resolves.toStrictEqual(long);
  });

  test("a getter in params is read once, and a lone surrogate is refused at its path either way", async () => {
    let reads = 0;
    const params = { get value() { reads += 1; return "read"; }, after: 1 };
    await expect(Hybrid.call("bridge", "echo", params)).resolves.toStrictEqual({ value: "read", after: 1 });
    expect(reads).toBe(1);
    await expect(Hybrid.call("bridge", "echo", { ok: "fine", bad: { s: "\ud800" } }))
      .rejects.toMatchObject(error("E_BAD_PARAMS", "bridge", "echo", { path: "/bad/s" }));
  });

  test("a getter or proxy that throws refuses the call at its member's path, as JSON.stringify would throw", async () => {
    const throwing = () => { throw new Error("getter broke"); };
    // Plain params (sent as text) and params with a Date (walked) fail alike.
    for (const params of [Object.defineProperty({ a: 1 }, "b", { get: throwing, enumerable: true }),
      Object.defineProperty({ a: 1, d: new Date(0) }, "b", { get: throwing, enumerable: true })]) {
      const refused = Hybrid.call("bridge", "echo", params);
      await expect(refused).rejects.toMatchObject(error("E_BAD_PARAMS", "bridge", "echo", { path: "/b" }));
      await expect(refused).rejects.toThrow(/getter broke/);
    }
    const trapped = new Proxy({ x: 1 }, { get() { throw new TypeError("trap"); } });
    await expect(Hybrid.call("bridge", "echo", { list: [1, { inner: trapped }] }))
      .rejects.toMatchObject(error("E_BAD_PARAMS", "bridge", "echo", { path: "/list/1/inner/x" }));
    // Nothing is left behind: the next call goes through.
    await expect(Hybrid.call("bridge", "echo", { a: 1 })).resolves.toStrictEqual({ a: 1 });
  });

  test("a member a program put on Object.prototype is sent as the walk sends it", async () => {
    const walked = await Hybrid.call("bridge", "echo", Object.create({ inherited: 1 }, { own: { value: 2, enumerable: true } }));
    Object.defineProperty(Object.prototype, "inherited", { value: 1, enumerable: true, configurable: true, writable: true });
    let plain;
    try {
      plain = await Hybrid.call("bridge", "echo", { own: 2 });
    } finally {
      delete Object.prototype.inherited;
    }
    expect(plain).toStrictEqual(walked);
  });

  test("params default to an empty object", async () => {
    await expect(Hybrid.call("bridge", "echo")).resolves.toEqual({});
  });
});

describe("errors", () => {
  test("a rejection is an Error carrying code, target, action and message", async () => {
    let caught;
    try { await Hybrid.call("nowhere", "find", {}); } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toBeInstanceOf(Hybrid.HybridError);
    expect(caught.name).toBe("HybridError");
    expect(caught.message).toMatch(/unknown target "nowhere"/);
  });

  test("E_UNKNOWN_TARGET", async () => {
    await expect(Hybrid.call("nowhere", "find", {})).rejects.toMatchObject(error("E_UNKNOWN_TARGET", "nowhere", "find"));
  });

  test("E_UNKNOWN_ACTION", async () => {
    await expect(Hybrid.call("bridge", "teleport", {})).rejects.toMatchObject(error("E_UNKNOWN_ACTION", "bridge", "teleport"));
  });

  test("E_BAD_PARAMS for params that are not an object", async () => {
    for (const params of [[1, 2], "text", 42, null, true]) {
      await expect(Hybrid.call("bridge", "echo", params)).rejects.toMatchObject(error("E_BAD_PARAMS", "bridge", "echo", { path: "" }));
    }
  });

  test("E_BAD_PARAMS with the JSON Pointer of the offending field", async () => {
    await expect(Hybrid.call("bridge", "describe", { verbose: true }))
      .rejects.toMatchObject(error("E_BAD_PARAMS", "bridge", "describe", { path: "/verbose" }));
    await expect(Hybrid.call("bridge", "echo", { list: ["ok", { name: "\uD800" }] }))
      .rejects.toMatchObject(error("E_BAD_PARAMS", "bridge", "echo", { path: "/list/1/name" }));
  });

  test("an unexpected property names what the action takes, and the name it is likely a typo of", async () => {
    await expect(Hybrid.call("kv", "query", { bucket: "tasks", oderBy: "due" })).rejects.toMatchObject(error("E_BAD_PARAMS", "kv", "query", {
      path: "/oderBy",
      message: 'params/oderBy: unexpected property "oderBy"; did you mean "orderBy"? expected one of bucket, where, orderBy, limit',
      details: { expected: ["bucket", "where", "orderBy", "limit"], suggestion: "orderBy" },
    }));
    const nested = await Hybrid.call("kv", "getMany", { items: [{ bucket: "b", key: "k", ttl: 1 }] }).catch((e) => e);
    expect(nested).toMatchObject({ path: "/items/0/ttl", details: { expected: ["bucket", "key"] } });
    expect(nested.message).toBe('params/items/0/ttl: unexpected property "ttl"; expected one of bucket, key');
    expect(nested.details.suggestion).toBeUndefined();
  });

  test("E_BAD_PARAMS for nesting deeper than 256, naming where", async () => {
    const root = {};
    let inner = root;
    for (let i = 1; i < 257; i++) inner = inner.x = {};
    await expect(Hybrid.call("bridge", "echo", root))
      .rejects.toMatchObject(error("E_BAD_PARAMS", "bridge", "echo", { path: "/x".repeat(256) }));
  });

  test("E_TOO_LARGE for params over 16 MiB", async () => {
    await expect(Hybrid.call("bridge", "echo", { blob: "x".repeat(16 * 1024 * 1024 + 1) }))
      .rejects.toMatchObject(error("E_TOO_LARGE", "bridge", "echo"));
  });

  test("E_TIMEOUT when a call outlives timeoutMs", async () => {
    await expect(callThatTimesOut("device", "info", {}, 1)).rejects.toMatchObject(error("E_TIMEOUT", "device", "info"));
  });

  test("a generous timeoutMs does not fire", async () => {
    await expect(Hybrid.call("device", "info", {}, { timeoutMs: 60000 })).resolves.toMatchObject({ platform: "linux" });
  });

  test("E_BAD_PARAMS for a timeoutMs that is not a positive number", async () => {
    for (const timeoutMs of [-1, 0, "soon"]) {
      await expect(Hybrid.call("device", "info", {}, { timeoutMs })).rejects.toMatchObject(error("E_BAD_PARAMS", "device", "info"));
    }
  });

  test("E_CANCELLED when the AbortController aborts a call in flight", async () => {
    const controller = new AbortController();
    const promise = Hybrid.call("device", "info", {}, { signal: controller.signal });
    controller.abort();
    await expect(promise).rejects.toMatchObject(error("E_CANCELLED", "device", "info"));
  });

  test("E_CANCELLED at once when the signal was aborted before the call", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(Hybrid.call("bridge", "echo", {}, { signal: controller.signal })).rejects.toMatchObject(error("E_CANCELLED", "bridge", "echo"));
  });

  test("the host keeps serving after every kind of error", async () => {
    await expect(Hybrid.call("bridge", "echo", null)).rejects.toMatchObject({ code: "E_BAD_PARAMS" });
    await expect(Hybrid.call("bridge", "echo", { blob: "x".repeat(17 * 1024 * 1024) })).rejects.toMatchObject({ code: "E_TOO_LARGE" });
    await expect(Hybrid.call("bridge", "echo", { after: true })).resolves.toEqual({ after: true });
  });

  test("__proto__ keys travel as data and pollute nothing", async () => {
    const sent = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const answer = await Hybrid.call("bridge", "echo", sent);
    expect(Object.keys(answer)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(answer)).toBe(Object.prototype);
    expect(answer.polluted).toBeUndefined();
    expect({}.polluted).toBeUndefined();
  });
});

describe("bridge.validate", () => {
  test("checks a value against a JSON Schema: the first violation, or valid", async () => {
    const schema = { type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] };
    expect(await Hybrid.call("bridge", "validate", { schema, value: { n: 2 } })).toEqual({ valid: true });
    expect(await Hybrid.call("bridge", "validate", { schema, value: { n: 0 } })).toMatchObject({ valid: false, path: "/n" });
    await expect(Hybrid.call("bridge", "validate", { schema: { type: "nonsense" }, value: 1 }))
      .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/schema" });
  });
});

describe("Hybrid.targets", () => {
  test("lists bridge and device, with their actions and whether they are granted", async () => {
    const targets = await Hybrid.targets();
    expect(Object.keys(targets)).toEqual(expect.arrayContaining(["bridge", "device"]));
    expect(targets.bridge).toMatchObject({ granted: true, version: expect.any(String) });
    expect(targets.device).toMatchObject({ granted: true });
    expect(Object.keys(targets.bridge.actions).sort()).toEqual(["describe", "echo", "validate"]);
    expect(targets.device.actions.info).toMatchObject({ params: { type: "object" }, result: { type: "object" } });
  });
});

describe("Hybrid.subscribe", () => {
  test("hands each answer to onEvent until stop()", async () => {
    const events = [];
    let subscription;
    await new Promise((resolve) => {
      subscription = Hybrid.subscribe("device", "id", {}, (event) => {
        events.push(event.id);
        if (events.length === 3) resolve();
      });
    });
    subscription.stop();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events.length).toBe(3);
    expect(new Set(events).size).toBe(1);
  });

  test("reports a failing call to onError", async () => {
    const failure = await new Promise((resolve) => {
      Hybrid.subscribe("nowhere", "watch", {}, () => {}, { onError: resolve });
    });
    expect(failure).toMatchObject({ code: "E_UNKNOWN_TARGET", target: "nowhere" });
  });
});
