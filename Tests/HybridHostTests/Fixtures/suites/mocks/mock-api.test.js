// node:test's mock API, checked line by line against node 20: TestMockTests runs this file under
// `hybrid test` and under `node --import ./node-globals.mjs` and compares the lines starting "»".
const shape = (value) => {
  if (value === undefined) return "undefined";
  if (typeof value === "function") return "function";
  if (value instanceof Error) return `${value.name}${value.code ? `[${value.code}]` : ""}: ${value.message}`;
  if (value && typeof value.then === "function") return "Promise";
  if (Array.isArray(value)) return `[${value.map(shape).join(", ")}]`;
  if (value && typeof value === "object") return `{${Object.keys(value).map((k) => `${k}: ${shape(value[k])}`).join(", ")}}`;
  return JSON.stringify(value);
};
const log = (label, value) => console.log(`» ${label}: ${shape(value)}`);
const attempt = (label, body) => {
  try {
    log(label, body());
  } catch (error) {
    log(label, error);
  }
};

test("mock.fn records each call: arguments, result, error, this", () => {
  const add = mock.fn((a, b) => a + b);
  log("add(1, 2)", add(1, 2));
  const receiver = { add };
  log("receiver.add(3, 4)", receiver.add(3, 4));
  log("callCount", add.mock.callCount());
  const [first, second] = add.mock.calls;
  log("first call", { arguments: first.arguments, result: first.result, error: first.error, this: first.this, target: first.target });
  log("second this is the receiver", second.this === receiver);
  log("a call has a stack", first.stack instanceof Error);
  log("call keys", Object.keys(first));
  log("calls is a copy", add.mock.calls !== add.mock.calls);
  log("a call has no prototype", Object.getPrototypeOf(first) === null);
  log("length and name come from the function", [add.length, typeof add.name]);

  const fails = mock.fn(() => { throw new RangeError("too far"); });
  attempt("fails()", () => fails(1));
  log("the error is recorded", [fails.mock.calls[0].error.message, fails.mock.calls[0].result]);

  const later = mock.fn(async (x) => x * 2);
  log("an async result is its promise", later(2));
  log("recorded as a promise", later.mock.calls[0].result instanceof Promise);

  const noop = mock.fn();
  log("mock.fn() returns undefined", noop("a"));
  log("and counts", noop.mock.calls.map((c) => c.arguments));
});

test("construct calls record target and this", () => {
  class Point { constructor(x) { this.x = x; } }
  const Made = mock.fn(Point);
  const point = new Made(3);
  const [call] = Made.mock.calls;
  log("new Made(3).x", point.x);
  log("this is the new object", call.this === point);
  log("target is the original", call.target === Point);
  log("instanceof", point instanceof Point);
});

test("implementations: mockImplementation, mockImplementationOnce, times, restore, resetCalls", () => {
  const f = mock.fn(() => "original");
  f.mock.mockImplementation(() => "replaced");
  f.mock.mockImplementationOnce(() => "once");
  f.mock.mockImplementationOnce(() => "fourth", 3);
  log("five calls", [f(), f(), f(), f(), f()]);
  f.mock.restore();
  log("restored", f());
  log("restore keeps the calls", f.mock.callCount());
  f.mock.resetCalls();
  log("resetCalls", f.mock.callCount());

  const g = mock.fn(() => "original", () => "stand-in", { times: 2 });
  log("times: 2", [g(), g(), g(), g()]);
  const h = mock.fn({ times: 1 });
  log("options alone", [h(), h.mock.callCount()]);

  attempt("mockImplementationOnce for a call already made", () => g.mock.mockImplementationOnce(() => 1, 0));
  attempt("mockImplementation(3)", () => f.mock.mockImplementation(3));
  attempt("mock.fn(5)", () => mock.fn(5));
  attempt("mock.fn(f, 5)", () => mock.fn(() => {}, 5));
  attempt("times: 0", () => mock.fn({ times: 0 }));
  attempt("times: 1.5", () => mock.fn({ times: 1.5 }));
});

test("mock.method replaces a method and restore puts it back", () => {
  const counter = { n: 1, get(x) { return this.n + x; } };
  const original = counter.get;
  const spy = mock.method(counter, "get");
  log("a spy calls through", counter.get(2));
  log("with this", spy.mock.calls[0].this === counter);
  log("the property is the mock", counter.get === spy);
  spy.mock.restore();
  log("restored", counter.get === original);
  log("the mock still counts", [spy(5), spy.mock.callCount()]);

  const replaced = mock.method(counter, "get", () => 100);
  log("replaced", [counter.get(1), replaced.mock.callCount()]);
  const once = mock.method(counter, "get", () => -1, { times: 1 });
  log("times 1", [counter.get(1), counter.get === once]);

  class Greeter { hello() { return "hello"; } }
  const greeter = new Greeter();
  mock.method(greeter, "hello", () => "hi");
  log("an inherited method", [greeter.hello(), new Greeter().hello()]);
  mock.restoreAll();
  log("restoreAll", [greeter.hello(), counter.get(1)]);

  const settings = { get level() { return 1; }, set level(v) { this.stored = v; } };
  mock.getter(settings, "level", () => 9);
  log("getter", settings.level);
  const setter = mock.method(settings, "level", function (v) { this.stored = v * 10; }, { setter: true });
  settings.level = 2;
  log("setter", [settings.stored, setter.mock.calls[0].arguments]);
  mock.reset();
  settings.level = 3;
  log("reset", [settings.level, settings.stored]);

  attempt("not a method", () => mock.method({ x: 1 }, "x"));
  attempt("missing", () => mock.method({}, "x"));
  attempt("null object", () => mock.method(null, "x"));
  attempt("methodName 5", () => mock.method({ x() {} }, 5));
  attempt("getter and setter", () => mock.method(settings, "level", { getter: true, setter: true }));
});

const shared = { read() { return "real"; } };

test("t.mock's mocks are restored when the test ends", (t) => {
  const spy = t.mock.method(shared, "read", () => "mocked");
  log("inside the test", [shared.read(), spy.mock.callCount()]);
  log("t.mock.fn", t.mock.fn(() => 7)());
});

test("the next test sees the original", () => {
  log("after the test", shared.read());
});
