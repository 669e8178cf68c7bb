// Web Storage (localStorage, sessionStorage), navigator and performance as H5 code meets them.
// The web-platform-tests' webstorage/ directory is not vendored (Tests/WebPlatformTests/README.md),
// so the Storage interface's behaviour is held to the HTML Standard here; persistence across runs,
// crashes and the quota are in Tests/HybridHostTests/WebStorageTests.swift.

describe("installed lazily", () => {
  test("localStorage, navigator and performance are accessors until first read", () => {
    for (const name of ["localStorage", "sessionStorage", "Storage", "navigator", "Navigator", "PerformanceMark"]) {
      expect(typeof Object.getOwnPropertyDescriptor(globalThis, name).get).toBe("function");
    }
    expect(typeof localStorage).toBe("object");
    expect(Object.getOwnPropertyDescriptor(globalThis, "localStorage").value).toBe(localStorage);
  });
});

describe("the Storage interface", () => {
  test("has no constructor of its own, and its members are Web IDL's", () => {
    expect(() => new Storage()).toThrow(TypeError);
    expect(localStorage instanceof Storage && sessionStorage instanceof Storage).toBe(true);
    expect(Object.getPrototypeOf(localStorage)).toBe(Storage.prototype);
    expect(Object.prototype.toString.call(localStorage)).toBe("[object Storage]");
    for (const name of ["length", "key", "getItem", "setItem", "removeItem", "clear"]) {
      expect(Object.getOwnPropertyDescriptor(Storage.prototype, name).enumerable).toBe(true);
    }
    expect([Storage.prototype.key.length, Storage.prototype.getItem.length, Storage.prototype.setItem.length,
      Storage.prototype.removeItem.length, Storage.prototype.clear.length]).toEqual([1, 1, 2, 1, 0]);
  });

  test("its members check what they are called on", () => {
    expect(() => Storage.prototype.getItem.call({}, "a")).toThrow(TypeError);
    expect(() => Object.getOwnPropertyDescriptor(Storage.prototype, "length").get.call(Object.create(localStorage))).toThrow(TypeError);
  });

  test("localStorage and sessionStorage are two storages", () => {
    localStorage.clear();
    sessionStorage.clear();
    localStorage.setItem("which", "local");
    expect(sessionStorage.getItem("which")).toBeNull();
    localStorage.clear();
  });

  test("storage objects cannot be cloned or made non-extensible", () => {
    expect(() => structuredClone(localStorage)).toThrow(DOMException);
    expect(() => Object.preventExtensions(sessionStorage)).toThrow(TypeError);
    expect(() => Object.freeze(localStorage)).toThrow(TypeError);
    expect(Object.isExtensible(localStorage)).toBe(true);
  });
});

for (const name of ["localStorage", "sessionStorage"]) {
  describe(name, () => {
    let storage;
    beforeEach(() => {
      storage = globalThis[name];
      storage.clear();
    });

    test("sets, gets, counts, lists, removes and clears items", () => {
      expect([storage.length, storage.getItem("a"), storage.key(0)]).toEqual([0, null, null]);
      storage.setItem("a", "1");
      storage.setItem("b", "2");
      expect([storage.length, storage.getItem("a"), storage.getItem("b"), storage.key(0), storage.key(1), storage.key(2)])
        .toEqual([2, "1", "2", "a", "b", null]);
      storage.removeItem("a");
      storage.removeItem("not there");
      expect([storage.length, storage.getItem("a"), storage.key(0)]).toEqual([1, null, "b"]);
      storage.clear();
      storage.clear();
      expect(storage.length).toBe(0);
    });

    test("keeps keys in the order they were first set; a new value keeps a key's place", () => {
      for (const key of ["z", "y", "x"]) storage.setItem(key, key);
      storage.setItem("z", "again");
      expect([0, 1, 2].map((i) => storage.key(i))).toEqual(["z", "y", "x"]);
      storage.removeItem("y");
      storage.setItem("y", "back");
      expect([0, 1, 2].map((i) => storage.key(i))).toEqual(["z", "x", "y"]);
    });

    test("key() takes its index as a Web IDL unsigned long", () => {
      storage.setItem("only", "1");
      expect([storage.key("0"), storage.key(0.9), storage.key(NaN), storage.key(-1), storage.key(2 ** 32)])
        .toEqual(["only", "only", "only", null, "only"]);
    });

    test("converts keys and values to strings, as DOMString does", () => {
      storage.setItem(null, undefined);
      storage.setItem(9, { toString: () => "object" });
      storage.setItem("n", 1.5);
      storage.setItem("b", false);
      expect([storage.getItem("null"), storage.getItem("9"), storage.getItem(9), storage.getItem("n"), storage.getItem("b")])
        .toEqual(["undefined", "object", "object", "1.5", "false"]);
      expect(() => storage.setItem(Symbol("k"), "v")).toThrow(TypeError);
      expect(() => storage.setItem("k", Symbol("v"))).toThrow(TypeError);
      expect(storage.length).toBe(4);
    });

    test("keeps any string: empty, quotes and escapes, every plane, lone surrogates", () => {
      const strings = ["", "\"quoted\" \\ back/slash", "tab\tline\nfeed\r\0nul\u001f", "日本語 🎉 é", "\uD800", "a\uDC00b", "\uDBFF\uDFFF"];
      for (const [i, value] of strings.entries()) storage.setItem(value, `${i}:${value}`);
      for (const [i, value] of strings.entries()) expect(storage.getItem(value)).toBe(`${i}:${value}`);
      expect(storage.length).toBe(strings.length);
    });

    test("missing arguments are a TypeError", () => {
      expect(() => storage.key()).toThrow(TypeError);
      expect(() => storage.getItem()).toThrow(TypeError);
      expect(() => storage.setItem()).toThrow(TypeError);
      expect(() => storage.setItem("a")).toThrow(TypeError);
      expect(() => storage.removeItem()).toThrow(TypeError);
    });

    test("items are named properties: read, assigned, listed, tested and deleted", () => {
      storage.token = "abc";
      storage[7] = 7;
      expect([storage.token, storage.getItem("token"), storage["7"], storage.getItem("7")]).toEqual(["abc", "abc", "7", "7"]);
      expect(["token" in storage, "7" in storage, "missing" in storage]).toEqual([true, true, false]);
      expect(storage.missing).toBeUndefined();
      expect(Object.keys(storage)).toEqual(["token", "7"]);
      expect(Object.getOwnPropertyNames(storage)).toEqual(["token", "7"]);
      expect(Object.entries(storage)).toEqual([["token", "abc"], ["7", "7"]]);
      expect(JSON.stringify(storage)).toBe('{"token":"abc","7":"7"}');
      const seen = [];
      for (const key in storage) if (Object.prototype.hasOwnProperty.call(storage, key)) seen.push(key);
      expect(seen).toEqual(["token", "7"]);
      expect(Object.getOwnPropertyDescriptor(storage, "token")).toEqual({ value: "abc", writable: true, enumerable: true, configurable: true });
      expect(delete storage.token).toBe(true);
      expect([storage.getItem("token"), storage.length, Object.keys(storage)]).toEqual([null, 1, ["7"]]);
    });

    test("a name the prototype has reads as the member; assigning it still sets the item", () => {
      storage.setItem("getItem", "item");
      storage.key = "k";
      storage.length = 99;
      expect([typeof storage.getItem, typeof storage.key, storage.length]).toEqual(["function", "function", 3]);
      expect([storage.getItem("getItem"), storage.getItem("key"), storage.getItem("length")]).toEqual(["item", "k", "99"]);
      expect("getItem" in storage).toBe(true);
      // Not visible, so not own properties: neither listed nor deleted as items.
      expect(Object.keys(storage)).toEqual([]);
      expect(Object.getOwnPropertyDescriptor(storage, "key")).toBeUndefined();
      delete storage.key;
      expect(storage.getItem("key")).toBe("k");
      storage.setItem("toString", "x");
      expect(String(storage)).toBe("[object Storage]");
    });

    test("defineProperty with a value sets the item; an accessor is refused", () => {
      Object.defineProperty(storage, "defined", { value: "v" });
      expect(storage.getItem("defined")).toBe("v");
      expect(() => Object.defineProperty(storage, "accessor", { get: () => "v" })).toThrow(TypeError);
      expect(storage.getItem("accessor")).toBeNull();
    });

    test("symbol-keyed properties are the object's own, not items", () => {
      const key = Symbol("k");
      storage[key] = "test";
      expect([storage[key], storage.length]).toEqual(["test", 0]);
      expect(Object.getOwnPropertySymbols(storage)).toEqual([key]);
      expect(delete storage[key]).toBe(true);
      expect(storage[key]).toBeUndefined();
    });

    test("setting the value an item has changes nothing", () => {
      storage.setItem("same", "v");
      storage.setItem("other", "w");
      storage.setItem("same", "v");
      expect([storage.key(0), storage.key(1)]).toEqual(["same", "other"]);
    });
  });
}

describe("navigator", () => {
  test("names the host and its version, the machine, the language and the CPUs", () => {
    expect(navigator.userAgent).toMatch(/^HybridHost\/\d+\.\d+\.\d+ JavaScriptCore\/\d+\.\d+\.\d+ \(Linux \S+\)$/);
    expect(navigator.platform).toMatch(/^Linux \S+$/);
    expect(navigator.userAgent.endsWith(`(${navigator.platform})`)).toBe(true);
    expect(navigator.language).toMatch(/^[a-z]{2,3}(-[A-Za-z0-9]+)*$/);
    expect(navigator.languages).toEqual([navigator.language]);
    expect(Number.isInteger(navigator.hardwareConcurrency) && navigator.hardwareConcurrency >= 1).toBe(true);
    expect(navigator.onLine).toBe(true);
  });

  test("languages is one frozen array", () => {
    expect(navigator.languages).toBe(navigator.languages);
    expect(Object.isFrozen(navigator.languages)).toBe(true);
  });

  test("is the one Navigator, whose getters check what they are called on", () => {
    expect(navigator instanceof Navigator).toBe(true);
    expect(() => new Navigator()).toThrow(TypeError);
    expect(Object.prototype.toString.call(navigator)).toBe("[object Navigator]");
    expect(() => Object.getOwnPropertyDescriptor(Navigator.prototype, "userAgent").get.call({})).toThrow(TypeError);
    expect(Object.keys(Navigator.prototype)).toEqual(["userAgent", "platform", "language", "languages", "hardwareConcurrency", "onLine"]);
  });
});

describe("performance", () => {
  beforeEach(() => {
    performance.clearMarks();
    performance.clearMeasures();
  });

  test("is the one Performance, an EventTarget", () => {
    expect(performance instanceof Performance && performance instanceof EventTarget).toBe(true);
    expect(() => new Performance()).toThrow(TypeError);
    let heard = 0;
    performance.addEventListener("ping", () => heard++, { once: true });
    performance.dispatchEvent(new Event("ping"));
    performance.dispatchEvent(new Event("ping"));
    expect(heard).toBe(1);
    expect(String(performance)).toBe("[object Performance]");
  });

  test("now() is monotonic time since timeOrigin, which is the epoch time it started at", () => {
    const a = performance.now();
    const b = performance.now();
    expect(a > 0 && b >= a).toBe(true);
    expect(Math.abs(performance.timeOrigin + performance.now() - Date.now())).toBeLessThan(50);
    expect(performance.toJSON()).toEqual({ timeOrigin: performance.timeOrigin });
    expect(JSON.parse(JSON.stringify(performance))).toEqual({ timeOrigin: performance.timeOrigin });
  });

  test("now() checks what it is called on, as a browser's does", () => {
    const now = performance.now;
    expect(() => now()).toThrow(TypeError);
    expect(typeof performance.now.call(performance)).toBe("number");
  });

  test("an event's timeStamp is on the same clock", () => {
    const before = performance.now();
    const stamp = new Event("x").timeStamp;
    expect(stamp >= before && stamp <= performance.now()).toBe(true);
  });

  test("mark() queues a PerformanceMark with its time and a copy of its detail", () => {
    const detail = { step: 1 };
    const before = performance.now();
    const mark = performance.mark("start", { detail });
    expect(mark instanceof PerformanceMark && mark instanceof PerformanceEntry).toBe(true);
    expect([mark.name, mark.entryType, mark.duration]).toEqual(["start", "mark", 0]);
    expect(mark.startTime >= before && mark.startTime <= performance.now()).toBe(true);
    expect(mark.detail).toEqual({ step: 1 });
    expect(mark.detail === detail).toBe(false);
    expect(mark.toJSON()).toEqual({ name: "start", entryType: "mark", startTime: mark.startTime, duration: 0 });
    expect(performance.mark("given", { startTime: 0.5 }).startTime).toBe(0.5);
    expect(performance.mark("plain").detail).toBeNull();
    expect(performance.getEntriesByType("mark").map((e) => e.name)).toEqual(["given", "start", "plain"]);
  });

  test("marks refuse a negative start time and an uncloneable detail", () => {
    expect(() => performance.mark("m", { startTime: -1 })).toThrow(TypeError);
    expect(() => performance.mark("m", { startTime: NaN })).toThrow(TypeError);
    expect(() => performance.mark("m", { detail: () => 1 })).toThrow(DOMException);
    expect(() => performance.mark()).toThrow(TypeError);
    expect(performance.getEntries()).toEqual([]);
  });

  test("a PerformanceMark may be constructed; it is not queued. Other entries may not", () => {
    const mark = new PerformanceMark("made", { startTime: 3 });
    expect([mark.name, mark.startTime]).toEqual(["made", 3]);
    expect(performance.getEntriesByName("made")).toEqual([]);
    expect(() => new PerformanceEntry()).toThrow(TypeError);
    expect(() => new PerformanceMeasure()).toThrow(TypeError);
  });

  test("measure() between marks, from a mark to now, and from the time origin", () => {
    performance.mark("a", { startTime: 10 });
    performance.mark("b", { startTime: 25 });
    performance.mark("a", { startTime: 15 }); // the most recent mark of a name counts
    const between = performance.measure("a to b", "a", "b");
    expect([between.name, between.entryType, between.startTime, between.duration]).toEqual(["a to b", "measure", 15, 10]);
    const toNow = performance.measure("a to now", "a");
    expect(toNow.startTime).toBe(15);
    expect(toNow.duration > 0).toBe(true);
    const whole = performance.measure("whole");
    expect(whole.startTime).toBe(0);
    expect(whole.detail).toBeNull();
  });

  test("measure() takes options: start, end, duration and detail", () => {
    performance.mark("a", { startTime: 10 });
    const cases = [
      [{ start: "a", end: 30 }, 10, 20],
      [{ start: 5, duration: 7 }, 5, 7],
      [{ duration: 4, end: "a" }, 6, 4],
      [{ end: 40 }, 0, 40],
    ];
    for (const [options, start, duration] of cases) {
      const entry = performance.measure("m", options);
      expect([entry.startTime, entry.duration]).toEqual([start, duration]);
    }
    expect(performance.measure("d", { start: 1, detail: [1, 2] }).detail).toEqual([1, 2]);
  });

  test("measure() refuses what User Timing refuses", () => {
    expect(() => performance.measure("m", "no such mark")).toThrow(DOMException);
    try {
      performance.measure("m", "no such mark");
    } catch (error) {
      expect(error.name).toBe("SyntaxError");
    }
    expect(() => performance.measure("m", { detail: 1 })).toThrow(TypeError);
    expect(() => performance.measure("m", { start: 1, end: 3, duration: 2 })).toThrow(TypeError);
    expect(() => performance.measure("m", { start: 1 }, "a")).toThrow(TypeError);
    expect(() => performance.measure("m", { start: -1 })).toThrow(TypeError);
  });

  test("entries come in start time order, by name and type, and are cleared by name or all", () => {
    performance.mark("late", { startTime: 50 });
    performance.mark("early", { startTime: 5 });
    performance.measure("span", { start: 20, end: 30 });
    performance.mark("early", { startTime: 7 });
    expect(performance.getEntries().map((e) => `${e.entryType}:${e.name}@${e.startTime}`))
      .toEqual(["mark:early@5", "mark:early@7", "measure:span@20", "mark:late@50"]);
    expect(performance.getEntriesByName("early").length).toBe(2);
    expect(performance.getEntriesByName("span", "mark")).toEqual([]);
    expect(performance.getEntriesByType("measure").length).toBe(1);
    performance.clearMarks("early");
    expect(performance.getEntries().map((e) => e.name)).toEqual(["span", "late"]);
    performance.clearMeasures();
    expect(performance.getEntries().map((e) => e.name)).toEqual(["late"]);
    performance.clearMarks();
    expect(performance.getEntries()).toEqual([]);
  });
});
