// The web platform's DOMException, events, abort and structuredClone, as H5 code meets them.
// (The web-platform-tests run the same globals against their standards: scripts/wpt.)

describe("installed lazily", () => {
  test("a global is an accessor until first read, then a plain value Web IDL-style", () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, "CustomEvent");
    expect(typeof before.get).toBe("function");
    expect(typeof CustomEvent).toBe("function");
    const after = Object.getOwnPropertyDescriptor(globalThis, "CustomEvent");
    expect(after.value).toBe(CustomEvent);
    expect([after.writable, after.enumerable, after.configurable]).toEqual([true, false, true]);
  });

  test("an assignment before the first read replaces the global", () => {
    globalThis.ErrorEvent = 42;
    expect(ErrorEvent).toBe(42);
  });

  test("self is the global object", () => {
    expect(self).toBe(globalThis);
  });
});

describe("DOMException", () => {
  test("has a name, a message and the legacy code of its name", () => {
    const e = new DOMException("no clone", "DataCloneError");
    expect([e.name, e.message, e.code, DOMException.DATA_CLONE_ERR]).toEqual(["DataCloneError", "no clone", 25, 25]);
    expect(e instanceof Error).toBe(true);
    expect(String(e)).toBe("DataCloneError: no clone");
    expect(new DOMException("x", "NotAName").code).toBe(0);
  });

  test("takes an options object with a cause", () => {
    const e = new DOMException("m", { name: "AbortError", cause: "why" });
    expect([e.name, e.code, e.cause]).toEqual(["AbortError", 20, "why"]);
  });

  test("its accessors check what they are called on", () => {
    expect(() => Object.getOwnPropertyDescriptor(DOMException.prototype, "name").get.call({})).toThrow(TypeError);
  });
});

describe("EventTarget", () => {
  test("runs listeners in order, once listeners once, handleEvent objects too", () => {
    const target = new EventTarget();
    const seen = [];
    target.addEventListener("ping", (event) => seen.push(["fn", event.eventPhase, event.target === target]));
    target.addEventListener("ping", { handleEvent(event) { seen.push(["object", event.currentTarget === target]); } });
    target.addEventListener("ping", () => seen.push("once"), { once: true });
    target.dispatchEvent(new Event("ping"));
    target.dispatchEvent(new Event("ping"));
    expect(seen).toEqual([["fn", 2, true], ["object", true], "once", ["fn", 2, true], ["object", true]]);
  });

  test("preventDefault cancels a cancelable event, not inside a passive listener", () => {
    const target = new EventTarget();
    target.addEventListener("a", (event) => event.preventDefault(), { passive: true });
    expect(target.dispatchEvent(new Event("a", { cancelable: true }))).toBe(true);
    target.addEventListener("b", (event) => event.preventDefault());
    expect(target.dispatchEvent(new Event("b", { cancelable: true }))).toBe(false);
    expect(target.dispatchEvent(new Event("b"))).toBe(true);
  });

  test("stopImmediatePropagation stops the listeners after it", () => {
    const target = new EventTarget();
    const seen = [];
    target.addEventListener("x", (event) => { seen.push(1); event.stopImmediatePropagation(); });
    target.addEventListener("x", () => seen.push(2));
    target.dispatchEvent(new Event("x"));
    expect(seen).toEqual([1]);
  });

  test("a listener added with a signal goes when the signal aborts", () => {
    const target = new EventTarget();
    const controller = new AbortController();
    let count = 0;
    target.addEventListener("x", () => count++, { signal: controller.signal });
    target.dispatchEvent(new Event("x"));
    controller.abort();
    target.dispatchEvent(new Event("x"));
    expect(count).toBe(1);
  });

  test("an event being dispatched cannot be dispatched again", () => {
    const target = new EventTarget();
    let error;
    target.addEventListener("x", (event) => {
      try { target.dispatchEvent(event); } catch (e) { error = e; }
    });
    target.dispatchEvent(new Event("x"));
    expect(error.name).toBe("InvalidStateError");
  });

  test("an exception in a listener arrives as an error event on the global scope", () => {
    const errors = [];
    const onError = (event) => { errors.push(event.error.message); event.preventDefault(); };
    addEventListener("error", onError);
    const target = new EventTarget();
    target.addEventListener("x", () => { throw new Error("listener failed"); });
    target.addEventListener("x", () => errors.push("next listener ran"));
    target.dispatchEvent(new Event("x"));
    reportError(new Error("reported"));
    removeEventListener("error", onError);
    expect(errors).toEqual(["listener failed", "next listener ran", "reported"]);
  });

  test("CustomEvent carries its detail", () => {
    const event = new CustomEvent("c", { detail: { n: 1 } });
    expect(event.detail).toEqual({ n: 1 });
    expect(event instanceof Event).toBe(true);
    expect(Object.prototype.toString.call(event)).toBe("[object CustomEvent]");
  });
});

describe("AbortSignal", () => {
  test("abort fires onabort and listeners, with an AbortError reason by default", () => {
    const controller = new AbortController();
    const seen = [];
    controller.signal.onabort = (event) => seen.push(["onabort", event.type, event.isTrusted]);
    controller.signal.addEventListener("abort", () => seen.push(controller.signal.reason.name));
    controller.abort();
    controller.abort();
    expect(seen).toEqual([["onabort", "abort", true], "AbortError"]);
    expect(() => controller.signal.throwIfAborted()).toThrow(DOMException);
  });

  test("AbortSignal.any follows the first of its signals to abort", () => {
    const a = new AbortController();
    const b = new AbortController();
    const any = AbortSignal.any([a.signal, b.signal]);
    b.abort("b first");
    a.abort("a second");
    expect([any.aborted, any.reason]).toEqual([true, "b first"]);
    expect(AbortSignal.any([AbortSignal.abort("done")]).reason).toBe("done");
  });

  test("AbortSignal.timeout aborts with a TimeoutError", async () => {
    const signal = AbortSignal.timeout(5);
    await new Promise((resolve) => signal.addEventListener("abort", resolve));
    expect(signal.reason.name).toBe("TimeoutError");
  });

  test("cannot be constructed", () => {
    expect(() => new AbortSignal()).toThrow(TypeError);
  });
});

describe("structuredClone", () => {
  test("copies the structured types, keeping cycles and shared references", () => {
    const shared = { n: 1 };
    const value = {
      date: new Date(5), regexp: /a+/gi, map: new Map([[1, shared]]), set: new Set([shared]),
      bytes: new Uint8Array([1, 2, 3]), big: 10n, boxed: new String("s"), list: [1, , 3], shared,
    };
    value.self = value;
    const copy = structuredClone(value);
    expect(copy).not.toBe(value);
    expect(copy.self).toBe(copy);
    expect(copy.map.get(1)).toBe(copy.shared);
    expect(copy.set.has(copy.shared)).toBe(true);
    expect(copy.date.getTime()).toBe(5);
    expect([copy.regexp.source, copy.regexp.flags]).toEqual(["a+", "gi"]);
    expect(Array.from(copy.bytes)).toEqual([1, 2, 3]);
    expect(copy.big).toBe(10n);
    expect(copy.boxed instanceof String).toBe(true);
    expect(1 in copy.list).toBe(false);
  });

  test("copies errors by their standard name, with message and cause", () => {
    const copy = structuredClone(new RangeError("bad", { cause: 3 }));
    expect(copy instanceof RangeError).toBe(true);
    expect([copy.message, copy.cause]).toEqual(["bad", 3]);
  });

  test("refuses functions, symbols and platform objects with a DataCloneError", () => {
    for (const value of [() => 1, Symbol("s"), new WeakMap(), new EventTarget(), { nested: () => 2 }]) {
      let error;
      try { structuredClone(value); } catch (e) { error = e; }
      expect(error instanceof DOMException).toBe(true);
      expect(error.name).toBe("DataCloneError");
    }
  });

  test("transfers an ArrayBuffer: the original is detached", () => {
    const buffer = new Uint8Array([9, 8, 7]).buffer;
    const copy = structuredClone({ buffer }, { transfer: [buffer] });
    expect(buffer.byteLength).toBe(0);
    expect(Array.from(new Uint8Array(copy.buffer))).toEqual([9, 8, 7]);
  });
});
