// test-harness.js — the Jest-like test API that `hybrid test` runs.
//
// The host evaluates this file as the body of `(function (native) { ... })`, then the user's test
// file (which registers tests at its top level), then calls `__hybridTest.run({filter, indent})`.
// Tests run one at a time in registration order; each result is a TAP 14 line printed through
// `native.print(1, ...)`, every line prefixed by `indent`. It installs the globals test, it,
// describe, beforeEach, afterEach, beforeAll, afterAll, expect, mock and (non-enumerable) __hybridTest.
// It must never run a test before `run` or register one during it.
"use strict";

const DEFAULT_TIMEOUT_MS = 5000;
const inspect = (value) => (globalThis.__hybridInspect ?? fallbackInspect)(value);
// In messages an error is its name, message and extra fields; its stack is reported on its own.
const show = (value) => (value instanceof Error ? errorSummary(value) : inspect(value));

// ---- registration -----------------------------------------------------------------------------

const newSuite = (name, parent, mode) =>
  ({ name, parent, mode, items: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] });
const root = newSuite("", null, "normal");
let current = root;
let running = false;
let hasOnly = false;
let timeoutsApply = true;

// Where the caller of test()/describe() is, for failures that carry no useful stack (timeouts).
const callerLocation = () => locate(new Error().stack);

function checkRegistration(what, name, fn) {
  if (running) throw new Error(`${what}() cannot be called while tests run; call it at the top level of the file`);
  if (typeof name !== "string") throw new TypeError(`${what}(name, fn): name must be a string, got ${show(name)}`);
  if (fn !== undefined && typeof fn !== "function") {
    throw new TypeError(`${what}(${JSON.stringify(name)}, fn): fn must be a function, got ${show(fn)}`);
  }
}

// The third argument is the timeout in ms (Jest's), or options: { timeout, allowOpen } (node's
// `timeout`; `allowOpen: true` lets the test leave work running on purpose).
function addTest(mode, name, fn, options) {
  checkRegistration("test", name, mode === "todo" ? undefined : fn);
  if (mode !== "todo" && fn === undefined) throw new TypeError(`test(${JSON.stringify(name)}): missing test function`);
  if (options !== undefined && typeof options !== "number" && (typeof options !== "object" || options === null)) {
    throw new TypeError(`test(${JSON.stringify(name)}, fn, options): options must be a timeout in ms or { timeout, allowOpen }, got ${show(options)}`);
  }
  const timeoutMs = typeof options === "number" ? options : options?.timeout ?? DEFAULT_TIMEOUT_MS;
  const allowOpen = typeof options === "object" && options.allowOpen === true;
  if (mode === "only") hasOnly = true;
  current.items.push({ name, fn, mode, timeoutMs, allowOpen, suite: current, location: callerLocation() });
}

function addSuite(mode, name, fn) {
  checkRegistration("describe", name, fn);
  if (mode === "only") hasOnly = true;
  const suite = newSuite(name, current, mode);
  current.items.push(suite);
  current = suite;
  try {
    const result = fn();
    if (result && typeof result.then === "function") {
      throw new Error("describe() callbacks must be synchronous; put awaits inside test() or beforeAll()");
    }
  } catch (error) {
    // Reported as a failing test, so that a broken describe block cannot go unnoticed.
    suite.items.push({ name: "(describe callback)", mode: "broken", error, suite, location: callerLocation() });
  } finally {
    current = suite.parent;
  }
}

function addHook(kind) {
  return (fn, timeoutMs = DEFAULT_TIMEOUT_MS) => {
    checkRegistration(kind, "", fn);
    current[kind].push({ fn, timeoutMs });
  };
}

const test = (name, fn, options) => addTest("normal", name, fn, options);
test.skip = (name, fn, options) => addTest("skip", name, fn ?? (() => {}), options);
test.only = (name, fn, options) => addTest("only", name, fn, options);
test.todo = (name) => addTest("todo", name);
const describe = (name, fn) => addSuite("normal", name, fn);
describe.skip = (name, fn) => addSuite("skip", name, fn);
describe.only = (name, fn) => addSuite("only", name, fn);

// ---- what a test leaves running ------------------------------------------------------------------

// The runtime enters here the work that outlives the call that started it, for as long as it
// runs: calls in flight (bridge.js), subscriptions, long-polls among them (bridge.js), ref'd timers
// (globals.js) and the mounted view (view.js), each with where it was started and how to end it.
// After each test, what the test started and did not end fails it, by name and line, and is ended,
// so that the next test starts clean and the file can end: Deno's test sanitizers, for this host's
// kinds of work. The harness's own timers are not entered (`quietly`).
class OpenWork {
  #entries = new Map();
  #next = 1;
  #quiet = 0;
  /** Called before the ledger is read, to drop work that ended where it could not say so. */
  refreshers = new Set();

  open(kind, label, site, close) {
    if (this.#quiet > 0) return undefined;
    const id = this.#next++;
    this.#entries.set(id, { id, kind, label, site, close, allowed: false });
    return id;
  }

  close(id) {
    if (id !== undefined) this.#entries.delete(id);
  }

  /** Entries opened from now on have ids >= mark. */
  get mark() {
    return this.#next;
  }

  since(mark) {
    for (const refresh of this.refreshers) refresh();
    return [...this.#entries.values()].filter((entry) => entry.id >= mark);
  }

  quietly(fn) {
    this.#quiet += 1;
    try {
      return fn();
    } finally {
      this.#quiet -= 1;
    }
  }

  /** What is running now, each as "a timer (...) started at file:line:col", and the test running. */
  describeAll() {
    const open = [...this.#entries.values()].map(describeOpen);
    return this.test === undefined ? open : [`in the test "${this.test}"`, ...open];
  }

  /** The full name of the test running, for describeAll. */
  test = undefined;

  /** Ends each entry's work and forgets it. */
  end(entries) {
    for (const entry of entries) {
      this.#entries.delete(entry.id);
      try {
        entry.close();
      } catch {
        // Ending it is best effort: the session ends the rest with the file.
      }
    }
  }
}

const openWork = new OpenWork();

const describeOpen = (entry) => {
  const where = locate(entry.site?.stack);
  return `${/^[aeiou]/.test(entry.kind) ? "an" : "a"} ${entry.kind} (${entry.label})${where ? ` started at ${where}` : ""}`;
};

function leftOpenError(entries, subject) {
  const error = new Error(`${subject} left ${entries.length === 1 ? "this" : `these ${entries.length}`} running: `
    + entries.map(describeOpen).join("; ")
    + ". Stop it (subscription.stop(), clearTimeout, await the call, unmount the view) before the test ends, or keep it on purpose "
    + "with test(name, fn, { allowOpen: true }) or a // @allow-open line in the file");
  timeouts.add(error);
  return error;
}

// One turn of the event loop: work that ends as a test ends (a stop() in a callback) has ended.
const nextTurn = () => new Promise((resolve) => openWork.quietly(() => setTimeout(resolve, 0)));

// ---- running ----------------------------------------------------------------------------------

// Timeout errors, and the list of what a test left running: their stack shows only the harness,
// so they are reported at the test itself.
const timeouts = new WeakSet();

// `context` (a test's, for the test and its beforeEach/afterEach hooks) makes the argument a
// function declares: see contextArgument.
function callWithTimeout(fn, timeoutMs, context) {
  return new Promise((resolve, reject) => {
    let awaitsDone = false;
    const timeout = () => {
      const hint = awaitsDone ? " (it declares a parameter but did not use it as t, so it is Jest's done: call it when finished)" : "";
      const error = new Error(`timed out after ${timeoutMs} ms${hint}`);
      timeouts.add(error);
      reject(error);
    };
    // Off (under a debugger), the timer still stands, as far off as a timer goes: it keeps the
    // loop running while the test awaits an unref'd timer (AbortSignal.timeout), as it does otherwise.
    const timer = timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? openWork.quietly(() => setTimeout(timeout, timeoutsApply ? timeoutMs : 2 ** 31 - 1)) : undefined;
    const settle = (error) => {
      if (timer !== undefined) clearTimeout(timer);
      if (error === undefined) resolve(); else reject(error);
    };
    new Promise((done, fail) => {
      if (fn.length === 0) return Promise.resolve(fn()).then(done, fail);
      const callback = (error) => (error === undefined || error === null ? done() : fail(error));
      const { t, used } = contextArgument(context, callback);
      // node's (t, done); else one argument that is both node's `t` and Jest's `done`.
      const returned = fn.length > 1 ? fn(t, callback) : fn(t);
      if (returned && typeof returned.then === "function") Promise.resolve(returned).then(done, fail);
      else if (fn.length === 1 && used()) done();
      else awaitsDone = true;
    }).then(() => settle(), (error) => settle(error ?? new Error("rejected with undefined")));
  });
}

// What a test function's parameter gets: node's test context `t` (`t.name`, `t.mock`), which is
// also Jest's `done` callback. A test that returns a promise ends when it settles; one that returns
// at once ends then if it used `t` as a context, else when it calls `t()` (as `done`).
function contextArgument(context, callback) {
  const t = (error) => callback(error);
  let used = false;
  const use = (value) => { used = true; return value; };
  Object.defineProperties(t, {
    name: { get: () => use(context.name), configurable: true },
    mock: { get: () => use((context.mock ??= new MockTracker())), configurable: true },
  });
  return { t, used: () => used };
}

// The suites around a test, outermost (the file itself, unnamed) first.
const chain = (suite) => (suite.parent ? [...chain(suite.parent), suite] : [suite]);
const names = (suite) => chain(suite).slice(1).map((s) => s.name);
const fullName = (item) => [...names(item.suite), item.name].join(" > ");
const selectedByOnly = (item) => item.mode === "only" || chain(item.suite).some((s) => s.mode === "only");

async function run({ filter, indent = "", after, allowOpen: fileAllowsOpen = false, timeouts = true } = {}) {
  // Under a debugger (`hybrid test --inspect`) a test paused at a breakpoint must not time out.
  timeoutsApply = timeouts;
  // A test file that awaits at top level: its tests are registered once it has finished.
  if (after && typeof after.then === "function") await after;
  running = true;
  const filtering = filter !== undefined && filter !== "";
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  // How many tests' names contain the filter: none means the filter is a mistake.
  if (filtering) counts.matched = 0;
  let number = 0;
  const print = (line) => native.print(1, `${indent}${line}\n`);
  const point = (ok, name, directive = "") => {
    number += 1;
    const description = name.replaceAll("\\", "\\\\").replaceAll("#", "\\#").replace(/\s*\n\s*/g, " ");
    print(`${ok ? "ok" : "not ok"} ${number} - ${description}${directive}`);
  };
  const fail = (name, error, fallbackLocation, context = "") => {
    counts.failed += 1;
    point(false, name);
    for (const line of diagnostic(error, fallbackLocation, context)) print(line);
  };

  const skipReason = (item) => {
    if (item.mode === "skip" || chain(item.suite).some((s) => s.mode === "skip")) return "";
    if (hasOnly && !selectedByOnly(item)) return "not selected by .only";
    if (filtering && !fullName(item).includes(filter)) return "filtered";
    return null;
  };
  const willRun = (item) =>
    item.items ? item.items.some(willRun) : item.mode === "broken" || (item.mode !== "todo" && skipReason(item) === null);

  async function runTest(item, blockedBy) {
    const name = fullName(item);
    if (item.mode === "broken") return fail(name, item.error, item.location);
    if (filtering && name.includes(filter)) counts.matched += 1;
    if (item.mode === "todo") {
      counts.todo += 1;
      return point(false, name, " # TODO");
    }
    const reason = skipReason(item);
    if (reason !== null) {
      counts.skipped += 1;
      return point(true, name, reason ? ` # SKIP ${reason}` : " # SKIP");
    }
    if (blockedBy) return fail(name, blockedBy, item.location, "beforeAll failed: ");
    const suites = chain(item.suite);
    // The test's context, shared with its beforeEach and afterEach hooks; `mock` on first use.
    const context = { name: item.name, mock: undefined };
    const mark = openWork.mark;
    openWork.test = name;
    let failure;
    try {
      for (const hook of suites.flatMap((s) => s.beforeEach)) await callWithTimeout(hook.fn, hook.timeoutMs, context);
      await callWithTimeout(item.fn, item.timeoutMs, context);
    } catch (error) {
      failure = { error };
    }
    for (const hook of suites.reverse().flatMap((s) => [...s.afterEach].reverse())) {
      try {
        await callWithTimeout(hook.fn, hook.timeoutMs, context);
      } catch (error) {
        failure ??= { error };
      }
    }
    // As node does once a test has ended: its t.mock's mocks are restored.
    context.mock?.reset();
    openWork.test = undefined;
    await nextTurn();
    const left = openWork.since(mark);
    if (left.length > 0) {
      if (item.allowOpen || fileAllowsOpen) {
        for (const entry of left) entry.allowed = true;
      } else {
        failure ??= { error: leftOpenError(left, "the test") };
      }
      if (failure) openWork.end(left);
    }
    if (failure) return fail(name, failure.error, item.location);
    counts.passed += 1;
    point(true, name);
  }

  async function runSuite(suite, blockedBy) {
    const active = willRun(suite);
    const context = { name: suite.name, mock: undefined };
    if (active && !blockedBy) {
      for (const hook of suite.beforeAll) {
        try {
          await callWithTimeout(hook.fn, hook.timeoutMs, context);
        } catch (error) {
          blockedBy = error;
          break;
        }
      }
    }
    for (const item of suite.items) {
      if (item.items) await runSuite(item, blockedBy);
      else await runTest(item, blockedBy);
    }
    if (!active) return;
    for (const hook of suite.afterAll) {
      try {
        await callWithTimeout(hook.fn, hook.timeoutMs, context);
      } catch (error) {
        fail([...names(suite), "afterAll"].join(" > "), error, undefined, "afterAll failed: ");
      }
    }
    context.mock?.reset();
  }

  try {
    await runSuite(root, undefined);
    // What the file started outside any test (at its top level, in beforeAll) and its hooks did
    // not end; what a test kept on purpose is ended without a word.
    await nextTurn();
    const left = openWork.since(0);
    const unexpected = fileAllowsOpen ? [] : left.filter((entry) => !entry.allowed);
    if (unexpected.length > 0) fail("(the file, after its tests)", leftOpenError(unexpected, "the file"), undefined);
    openWork.end(left);
    print(`1..${number}`);
  } finally {
    running = false;
  }
  return counts;
}

// ---- failure reports ----------------------------------------------------------------------------

// The YAML block under a "not ok" line: message, where (file:line:col) and, for errors the test
// did not expect, their stack without the runtime's own frames.
function diagnostic(error, fallbackLocation, context) {
  const lines = ["  ---", ...yamlField("message", context + errorSummary(error))];
  const expected = error instanceof AssertionError || timeouts.has(error);
  const at = error instanceof AssertionError ? error.location : expected ? null : locate(error?.stack);
  if (at ?? fallbackLocation) lines.push(...yamlField("at", at ?? fallbackLocation));
  const stack = typeof error?.stack === "string" && !expected ? userFrames(error.stack) : [];
  if (stack.length > 1) lines.push(...yamlField("stack", stack.join("\n")));
  lines.push("  ...");
  return lines;
}

function yamlField(key, text) {
  if (/^[\w./][^#\n]*$/.test(text) && !/\s$/.test(text) && !text.includes(": ")) {
    return [`  ${key}: ${text}`];
  }
  if (!text.includes("\n") || /^\s/.test(text)) return [`  ${key}: ${JSON.stringify(text)}`];
  return [`  ${key}: |-`, ...text.split("\n").map((line) => (line ? `    ${line}` : ""))];
}

function errorSummary(error) {
  if (error instanceof AssertionError) return error.message;
  if (error instanceof Error || (error && typeof error === "object" && typeof error.message === "string")) {
    const extra = Object.keys(error).filter((k) => !["name", "message", "stack", "line", "column", "sourceURL"].includes(k));
    const props = extra.length ? ` ${show(Object.fromEntries(extra.map((k) => [k, error[k]])))}` : "";
    return `${error.name ?? "Error"}: ${error.message}${props}`;
  }
  return `thrown: ${show(error)}`;
}

// "file:line:col" of the first stack frame outside the runtime scripts. Understands both
// JavaScriptCore frames ("fn@file:1:2") and V8 frames ("    at fn (file:1:2)").
const frameLocation = (line) => /([^\s()@]+):(\d+):(\d+)\)?\s*$/.exec(line)?.[0].replace(/\)?\s*$/, "");
const fileOf = (location) => location?.replace(/:\d+:\d+$/, "");
const ownFile = fileOf(frameLocation(new Error().stack?.split("\n").find(frameLocation) ?? ""));
// The other runtime scripts live beside this one ("hybrid:bridge.js", "/…/runtime/bridge.js").
const runtimePrefix = ownFile?.slice(0, Math.max(ownFile.lastIndexOf("/"), ownFile.indexOf(":")) + 1) || null;

const isRuntimeFrame = (line) => {
  const file = fileOf(frameLocation(line));
  return file === ownFile || (runtimePrefix && file?.startsWith(runtimePrefix)) ||
    /\[native code\]$|\(<anonymous>\)$/.test(line);
};
// The host puts a stack's locations right: through the source map of a module compiled from
// TypeScript to the original file, line and column, and line 1's column without the module wrapper.
const mapStack = (stack) => (typeof native.mapStack === "function" ? native.mapStack(stack) : stack);
// As "at fn (file:1:2)" lines, whichever engine wrote them.
const userFrames = (stack) => mapStack(stack).split("\n")
  .filter((line) => frameLocation(line) && !isRuntimeFrame(line))
  .slice(0, 10)
  .map((line) => {
    if (/^\s+at /.test(line)) return line.trim();
    const [, fn, where] = /^(.*?)@(.*)$/.exec(line) ?? [, "", line];
    return fn ? `at ${fn} (${where})` : `at ${where}`;
  });

function locate(stack) {
  if (typeof stack !== "string") return null;
  for (const line of mapStack(stack).split("\n")) {
    const location = frameLocation(line);
    if (location && !isRuntimeFrame(line)) return location;
  }
  return null;
}

// ---- expect -----------------------------------------------------------------------------------

class AssertionError extends Error {
  constructor(message, origin) {
    super(message);
    this.name = "AssertionError";
    // For .resolves/.rejects the failing check runs after an await, when the user's frame is
    // gone from the stack; the location is taken where expect(...).resolves was written.
    Object.defineProperty(this, "location", { value: locate(this.stack) ?? locate(origin?.stack) });
  }
}

function expect(received) {
  return expectation(received, { negated: false, mode: "", origin: null });
}

function expectation(received, ctx) {
  const api = {};
  for (const [name, matcher] of Object.entries(matchers)) {
    api[name] = (...args) => {
      if (!ctx.mode) return check(name, matcher, received, args, ctx);
      return settle(received, name, args, ctx).then((value) => check(name, matcher, value, args, ctx));
    };
  }
  if (!ctx.negated) {
    Object.defineProperty(api, "not", { get: () => expectation(received, { ...ctx, negated: true }) });
  }
  if (!ctx.mode) {
    for (const mode of ["resolves", "rejects"]) {
      Object.defineProperty(api, mode, { get: () => expectation(received, { ...ctx, mode, origin: new Error() }) });
    }
  }
  return api;
}

function hint(name, ctx, args) {
  const expected = args.length ? "expected" : "";
  return `expect(received)${ctx.mode ? `.${ctx.mode}` : ""}${ctx.negated ? ".not" : ""}.${name}(${expected})`;
}

function check(name, matcher, received, args, ctx) {
  const { pass, message } = matcher(received, args, ctx);
  if (pass !== ctx.negated) return undefined;
  throw new AssertionError(`${hint(name, ctx, args)}\n\n${message()}`, ctx.origin);
}

async function settle(received, name, args, ctx) {
  const promise = typeof received === "function" ? received() : received;
  if (!promise || typeof promise.then !== "function") {
    throw new AssertionError(`${hint(name, ctx, args)}\n\nReceived value must be a promise\nReceived: ${show(promise)}`, ctx.origin);
  }
  let value;
  try {
    value = await promise;
  } catch (error) {
    if (ctx.mode === "rejects") return error;
    throw new AssertionError(`${hint(name, ctx, args)}\n\nReceived promise rejected instead of resolved\nRejected to value: ${show(error)}`, ctx.origin);
  }
  if (ctx.mode === "rejects") {
    throw new AssertionError(`${hint(name, ctx, args)}\n\nReceived promise resolved instead of rejected\nResolved to value: ${show(value)}`, ctx.origin);
  }
  return value;
}

// Each matcher returns whether it passed and, lazily, the lines that explain a failure (phrased
// for `.not` when ctx.negated is set).
const not = (ctx) => (ctx.negated ? "not " : "");
const expectedReceived = (ctx, expected, received) => () =>
  `Expected: ${not(ctx)}${show(expected)}\nReceived: ${show(received)}`;

function compareWith(mode) {
  return (received, [expected], ctx) => {
    if (mode === "subset" && (received === null || typeof received !== "object")) {
      throw new AssertionError(`${hint("toMatchObject", ctx, [expected])}\n\nReceived value must be a non-null object\nReceived: ${show(received)}`);
    }
    const difference = diff(received, expected, mode);
    return { pass: difference === null, message: () => expectedReceived(ctx, expected, received)() + explain(difference, "\n\n") };
  };
}

// "First difference at .records[2].title: expected 'b', received 'c'"; nothing when the
// Expected/Received lines already say it all.
function explain(difference, before, after = "") {
  if (!difference || (!difference.path && difference.plain)) return "";
  return `${before}${difference.path ? `First difference at ${difference.path}` : "Difference"}: ${difference.text}${after}`;
}

function numeric(name, test, symbol) {
  return (received, [expected], ctx) => {
    for (const [what, v] of [["Received", received], ["Expected", expected]]) {
      if (typeof v !== "number" && typeof v !== "bigint") {
        throw new AssertionError(`${hint(name, ctx, [expected])}\n\n${what} value must be a number or bigint\n${what}: ${show(v)}`);
      }
    }
    return { pass: test(received, expected), message: () => `Expected: ${not(ctx)}${symbol} ${show(expected)}\nReceived: ${show(received)}` };
  };
}

function thrownBy(received, ctx) {
  if (ctx.mode === "rejects") return { thrown: true, error: received };
  if (typeof received !== "function") {
    throw new AssertionError(`${hint("toThrow", ctx, [])}\n\nReceived value must be a function\nReceived: ${show(received)}`);
  }
  try {
    received();
  } catch (error) {
    return { thrown: true, error };
  }
  return { thrown: false };
}

const matchers = {
  toBe: (received, [expected], ctx) => ({
    pass: Object.is(received, expected),
    message: () => expectedReceived(ctx, expected, received)() +
      (!ctx.negated && typeof expected === "object" && expected !== null && diff(received, expected, "strict") === null
        ? "\n\nThe values are deeply equal but not the same object: use toEqual to compare structure." : ""),
  }),
  toEqual: compareWith("equal"),
  toStrictEqual: compareWith("strict"),
  toMatchObject: compareWith("subset"),
  toBeTruthy: (received, _, ctx) => ({ pass: !!received, message: () => `Received: ${show(received)}` }),
  toBeFalsy: (received, _, ctx) => ({ pass: !received, message: () => `Received: ${show(received)}` }),
  toBeNull: (received, _, ctx) => ({ pass: received === null, message: () => `Received: ${show(received)}` }),
  toBeUndefined: (received, _, ctx) => ({ pass: received === undefined, message: () => `Received: ${show(received)}` }),
  toBeDefined: (received, _, ctx) => ({ pass: received !== undefined, message: () => `Received: ${show(received)}` }),
  toBeNaN: (received, _, ctx) => ({ pass: Number.isNaN(received), message: () => `Received: ${show(received)}` }),
  toBeGreaterThan: numeric("toBeGreaterThan", (a, b) => a > b, ">"),
  toBeGreaterThanOrEqual: numeric("toBeGreaterThanOrEqual", (a, b) => a >= b, ">="),
  toBeLessThan: numeric("toBeLessThan", (a, b) => a < b, "<"),
  toBeLessThanOrEqual: numeric("toBeLessThanOrEqual", (a, b) => a <= b, "<="),
  toBeCloseTo: (received, [expected, digits = 2], ctx) => {
    const pass = (received === Infinity && expected === Infinity) || (received === -Infinity && expected === -Infinity) ||
      Math.abs(expected - received) < 10 ** -digits / 2;
    return { pass, message: () => `Expected: ${not(ctx)}${show(expected)} (within ${10 ** -digits / 2})\nReceived: ${show(received)}` };
  },
  toContain: (received, [item], ctx) => {
    let pass;
    if (typeof received === "string") pass = typeof item === "string" && received.includes(item);
    else if (received instanceof Set) pass = received.has(item);
    else if (received != null && typeof received[Symbol.iterator] === "function") pass = [...received].includes(item);
    else throw new AssertionError(`${hint("toContain", ctx, [item])}\n\nReceived value must be a string or an iterable\nReceived: ${show(received)}`);
    return { pass, message: () => `Expected to ${not(ctx)}contain: ${show(item)}\nReceived: ${show(received)}` };
  },
  toContainEqual: (received, [item], ctx) => ({
    pass: [...received].some((v) => diff(v, item, "equal") === null),
    message: () => `Expected to ${not(ctx)}contain an item equal to: ${show(item)}\nReceived: ${show(received)}`,
  }),
  toHaveLength: (received, [length], ctx) => {
    if (received == null || typeof received.length !== "number") {
      throw new AssertionError(`${hint("toHaveLength", ctx, [length])}\n\nReceived value must have a length property\nReceived: ${show(received)}`);
    }
    return { pass: received.length === length, message: () => `Expected length: ${not(ctx)}${length}\nReceived length: ${received.length}\nReceived: ${show(received)}` };
  },
  toHaveProperty: (received, args, ctx) => {
    const [path, value] = args;
    const keys = Array.isArray(path) ? path : String(path).match(/[^.[\]]+/g) ?? [];
    let target = received;
    let found = received != null;
    for (const key of keys) {
      if (target == null || !(key in Object(target))) {
        found = false;
        break;
      }
      target = target[key];
    }
    const pass = found && (args.length < 2 || diff(target, value, "equal") === null);
    return {
      pass,
      message: () => `Expected path: ${show(path)}${args.length > 1 ? `\nExpected value: ${not(ctx)}${show(value)}` : ""}\n` +
        (found ? `Received value: ${show(target)}` : `Received: the path does not exist in ${show(received)}`),
    };
  },
  toMatch: (received, [pattern], ctx) => {
    if (typeof received !== "string") {
      throw new AssertionError(`${hint("toMatch", ctx, [pattern])}\n\nReceived value must be a string\nReceived: ${show(received)}`);
    }
    const pass = typeof pattern === "string" ? received.includes(pattern) : new RegExp(pattern).test(received);
    return { pass, message: () => `Expected pattern: ${not(ctx)}${show(pattern)}\nReceived string: ${show(received)}` };
  },
  toBeInstanceOf: (received, [type], ctx) => ({
    pass: received instanceof type,
    message: () => `Expected constructor: ${not(ctx)}${type?.name ?? show(type)}\nReceived: ${show(received)}`,
  }),
  toThrow: (received, args, ctx) => {
    const [expected] = args;
    const { thrown, error } = thrownBy(received, ctx);
    const messageOf = (e) => (e && typeof e.message === "string" ? e.message : String(e));
    let pass = thrown;
    let wanted = "";
    if (thrown && expected !== undefined) {
      if (typeof expected === "string") {
        pass = messageOf(error).includes(expected);
        wanted = `Expected message to ${not(ctx)}contain: ${show(expected)}\n`;
      } else if (expected instanceof RegExp) {
        pass = expected.test(messageOf(error));
        wanted = `Expected message to ${not(ctx)}match: ${show(expected)}\n`;
      } else if (typeof expected === "function") {
        pass = error instanceof expected;
        wanted = `Expected ${not(ctx)}an instance of: ${expected.name}\n`;
      } else if (expected instanceof Error) {
        pass = messageOf(error) === expected.message;
        wanted = `Expected message: ${not(ctx)}${show(expected.message)}\n`;
      } else {
        const difference = diff(error, expected, "subset");
        pass = difference === null;
        wanted = `Expected thrown value to ${not(ctx)}match: ${show(expected)}\n` +
          explain(difference, "", "\n");
      }
    }
    return {
      pass,
      message: () => wanted + (thrown ? `Thrown: ${show(error)}` : "Received function did not throw"),
    };
  },
};
matchers.toThrowError = matchers.toThrow;

// expect.extend({ toBeEven(received, ...args) { return { pass, message: () => "..." }; } })
expect.extend = (extra) => {
  for (const [name, fn] of Object.entries(extra)) {
    matchers[name] = (received, args, ctx) => {
      const { pass, message } = fn.call({ isNot: ctx.negated, equals: (a, b) => diff(a, b, "equal") === null }, received, ...args);
      return { pass, message: typeof message === "function" ? message : () => String(message ?? "") };
    };
  }
};

// ---- asymmetric matchers: expect.any(String), expect.objectContaining({...}), ... ---------------

const INSPECT = Symbol.for("nodejs.util.inspect.custom");
class Asymmetric {
  constructor(label, match) {
    this.match = match;
    Object.defineProperty(this, INSPECT, { value: () => label });
  }
}
const typeofFor = new Map([[String, "string"], [Number, "number"], [Boolean, "boolean"], [BigInt, "bigint"],
  [Symbol, "symbol"], [Function, "function"], [Object, "object"]]);
expect.anything = () => new Asymmetric("Anything", (v) => v !== null && v !== undefined);
expect.any = (type) => new Asymmetric(`Any<${type?.name}>`, (v) =>
  (typeofFor.has(type) && typeof v === typeofFor.get(type) && v !== null) || (v !== null && typeof v === "object" && v instanceof type));
expect.stringContaining = (s) => new Asymmetric(`StringContaining ${show(s)}`, (v) => typeof v === "string" && v.includes(s));
expect.stringMatching = (re) => new Asymmetric(`StringMatching ${show(re)}`, (v) => typeof v === "string" && new RegExp(re).test(v));
expect.objectContaining = (o) => new Asymmetric(`ObjectContaining ${show(o)}`, (v) => v !== null && typeof v === "object" && diff(v, o, "subset") === null);
expect.arrayContaining = (a) => new Asymmetric(`ArrayContaining ${show(a)}`, (v) => Array.isArray(v) && a.every((x) => v.some((y) => diff(y, x, "equal") === null)));

// ---- deep comparison --------------------------------------------------------------------------

const tagOf = (v) => Object.prototype.toString.call(v);
const keyPath = (key) => (typeof key === "symbol" ? `[${key.toString()}]`
  : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);
const enumerableKeys = (o) => [...Object.keys(o), ...Object.getOwnPropertySymbols(o).filter((s) => Object.prototype.propertyIsEnumerable.call(o, s))];
const bytesOf = (v) => (ArrayBuffer.isView(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(v));

// The first difference between received and expected, as {path, text}, or null when they match.
// mode "equal" is Jest's toEqual (undefined properties ignored, classes not compared), "strict" is
// toStrictEqual, "subset" is toMatchObject (only the expected object's properties are checked).
function diff(received, expected, mode, path = "", seen = []) {
  const differ = (text) => (text ? { path, text } : { path, text: `expected ${show(expected)}, received ${show(received)}`, plain: true });
  if (expected instanceof Asymmetric) return expected.match(received) ? null : differ();
  if (Object.is(received, expected)) return null;
  if (typeof received !== "object" || received === null || typeof expected !== "object" || expected === null) return differ();
  if (seen.some(([r, e]) => r === received && e === expected)) return null; // already being compared (a cycle)
  seen = [...seen, [received, expected]];
  const tag = tagOf(expected);
  const subsetOfObject = mode === "subset" && tag === "[object Object]";
  if (!subsetOfObject && tagOf(received) !== tag) return differ();
  if (mode === "strict" && Object.getPrototypeOf(received) !== Object.getPrototypeOf(expected)) {
    return differ(`expected an instance of ${expected.constructor?.name ?? "null prototype"}, received ${show(received)}`);
  }
  if (received instanceof Date) return Object.is(received.getTime(), expected.getTime()) ? null : differ();
  if (received instanceof RegExp) return String(received) === String(expected) ? null : differ();
  if (["[object Number]", "[object String]", "[object Boolean]"].includes(tag)) {
    return Object.is(received.valueOf(), expected.valueOf()) ? null : differ();
  }
  if (received instanceof Error && expected instanceof Error && mode !== "subset") {
    return received.name === expected.name && received.message === expected.message ? null : differ();
  }
  if (ArrayBuffer.isView(expected) || expected instanceof ArrayBuffer) {
    const [a, b] = [bytesOf(received), bytesOf(expected)];
    if (a.length !== b.length) return differ(`expected ${b.length} bytes, received ${a.length}`);
    const i = a.findIndex((byte, index) => byte !== b[index]);
    return i === -1 ? null : { path: `${path}[byte ${i}]`, text: `expected ${b[i]}, received ${a[i]}` };
  }
  if (expected instanceof Map) {
    if (received.size !== expected.size) return differ(`expected ${show(expected)}, received ${show(received)} (sizes differ)`);
    for (const [key, value] of expected) {
      const match = received.has(key) ? key : [...received.keys()].find((k) => diff(k, key, "equal") === null);
      if (match === undefined && !received.has(key)) return differ(`missing key ${show(key)}`);
      const d = diff(received.get(match), value, mode, `${path}.get(${show(key)})`, seen);
      if (d) return d;
    }
    return null;
  }
  if (expected instanceof Set) {
    if (received.size !== expected.size) return differ();
    for (const value of expected) {
      if (!received.has(value) && ![...received].some((v) => diff(v, value, mode, "", seen) === null)) {
        return differ(`missing member ${show(value)} in ${show(received)}`);
      }
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (received.length !== expected.length) {
      return differ(`expected length ${expected.length}, received length ${received.length}${path ? `: ${show(received)}` : ""}`);
    }
    for (let i = 0; i < expected.length; i++) {
      if (mode === "strict" && (i in received) !== (i in expected)) return { path: `${path}[${i}]`, text: "one array has a hole here, the other does not" };
      const d = diff(received[i], expected[i], mode, `${path}[${i}]`, seen);
      if (d) return d;
    }
    if (mode === "subset") return null;
  }
  // Objects (and arrays' extra properties): key by key.
  const defined = (o) => enumerableKeys(o).filter((k) => mode === "strict" || o[k] !== undefined);
  const expectedKeys = Array.isArray(expected) ? defined(expected).filter((k) => !/^\d+$/.test(k)) : defined(expected);
  for (const key of expectedKeys) {
    const present = mode === "subset" ? key in received : Object.prototype.hasOwnProperty.call(received, key) && (mode === "strict" || received[key] !== undefined);
    if (!present) return { path: path + keyPath(key), text: `expected ${show(expected[key])}, but the property is missing` };
    const d = diff(received[key], expected[key], mode, path + keyPath(key), seen);
    if (d) return d;
  }
  if (mode !== "subset") {
    const extra = defined(received).find((k) => !expectedKeys.includes(k) && !(Array.isArray(received) && /^\d+$/.test(k)));
    if (extra !== undefined) return { path: path + keyPath(extra), text: `unexpected property with value ${show(received[extra])}` };
  }
  return null;
}

// Used only when console.js (which provides __hybridInspect) was not loaded.
function fallbackInspect(value, seen = []) {
  if (typeof value === "string") return `'${value}'`;
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "symbol") return value.toString();
  if (typeof value === "function") return `[Function: ${value.name || "(anonymous)"}]`;
  if (typeof value !== "object" || value === null) return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value[INSPECT] === "function") return value[INSPECT]();
  if (seen.includes(value)) return "[Circular]";
  const inner = (v) => fallbackInspect(v, [...seen, value]);
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `[ ${value.map(inner).join(", ")} ]`;
  if (value instanceof Map) return `Map(${value.size}) { ${[...value].map(([k, v]) => `${inner(k)} => ${inner(v)}`).join(", ")} }`;
  if (value instanceof Set) return `Set(${value.size}) { ${[...value].map(inner).join(", ")} }`;
  const keys = Object.keys(value);
  return keys.length ? `{ ${keys.map((k) => `${k}: ${inner(value[k])}`).join(", ")} }` : "{}";
}

// ---- mocks: node:test's mock, as node 20 has it ------------------------------------------------

// Errors as node's argument checks throw them, with their codes.
function invalidType(name, expected, value) {
  const received = value === null || value === undefined ? String(value)
    : typeof value === "function" ? `function ${value.name}`
    : typeof value === "object" ? `an instance of ${value.constructor?.name ?? "Object"}`
    : `type ${typeof value} (${show(value)})`;
  return Object.assign(new TypeError(`The "${name}" argument must be ${expected}. Received ${received}`), { code: "ERR_INVALID_ARG_TYPE" });
}
const checkFunction = (value, name) => {
  if (typeof value !== "function") throw invalidType(name, "of type function", value);
};
const checkObject = (value, name) => {
  if (value === null || typeof value !== "object") throw invalidType(name, "of type object", value);
};
const checkCount = (value, name, min) => {
  if (typeof value === "number" && value === Infinity && name === "options.times") return;
  if (typeof value !== "number") throw invalidType(name, "of type number", value);
  const range = !Number.isInteger(value) ? "an integer" : value < min || value > Number.MAX_SAFE_INTEGER ? `>= ${min} && <= ${Number.MAX_SAFE_INTEGER}` : null;
  if (range) {
    throw Object.assign(new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${value}`), { code: "ERR_OUT_OF_RANGE" });
  }
};

// What `fn.mock` is: the calls, and which implementation the next call runs.
class MockFunctionContext {
  #calls = [];
  #once = new Map();
  #implementation;
  #restore;
  #times;

  constructor(implementation, restore, times) {
    this.#implementation = implementation;
    this.#restore = restore;
    this.#times = times;
  }

  /** A copy of the calls so far, each {arguments, error, result, stack, target, this}. */
  get calls() { return this.#calls.slice(); }
  callCount() { return this.#calls.length; }

  mockImplementation(implementation) {
    checkFunction(implementation, "implementation");
    this.#implementation = implementation;
  }

  /** `implementation` for one call only: the next, or call number `onCall` (from 0). */
  mockImplementationOnce(implementation, onCall) {
    checkFunction(implementation, "implementation");
    const next = this.#calls.length;
    const call = onCall ?? next;
    checkCount(call, "onCall", next);
    this.#once.set(call, implementation);
  }

  /** A method mock puts the original property back; a function mock calls its original again. */
  restore() {
    const { object, methodName, descriptor, inherited, original } = this.#restore;
    if (object === undefined) {
      this.#implementation = original;
      return;
    }
    // node defines the inherited method on the object itself; we leave the object as it was.
    if (inherited) delete object[methodName];
    else Object.defineProperty(object, methodName, descriptor);
  }

  resetCalls() { this.#calls = []; }

  static track(context, call) { context.#calls.push(call); }

  static next(context) {
    const call = context.#calls.length;
    const implementation = context.#once.get(call) ?? context.#implementation;
    if (call + 1 === context.#times) context.restore();
    context.#once.delete(call);
    return implementation;
  }
}

class MockTracker {
  #mocks = [];

  /**
   * A function that records its calls in `.mock` and runs `implementation` (default: `original`,
   * default: a function that does nothing); after `options.times` calls, `original` again.
   */
  fn(original = function () {}, implementation = original, options = {}) {
    if (original !== null && typeof original === "object") {
      options = original;
      original = function () {};
      implementation = original;
    } else if (implementation !== null && typeof implementation === "object") {
      options = implementation;
      implementation = original;
    }
    checkFunction(original, "original");
    checkFunction(implementation, "implementation");
    checkObject(options, "options");
    const { times = Infinity } = options;
    checkCount(times, "options.times", 1);
    return this.#setUp(new MockFunctionContext(implementation, { original }, times), original);
  }

  /** Replaces `object[methodName]` (own or inherited) with a mock; `restore()` puts it back. */
  method(object, methodName, implementation = undefined, options = {}) {
    if (typeof methodName !== "string" && typeof methodName !== "symbol") {
      throw invalidType("methodName", "one of type string or symbol", methodName);
    }
    if (typeof object !== "function") checkObject(object, "object");
    if (implementation !== null && typeof implementation === "object") {
      options = implementation;
      implementation = undefined;
    }
    if (implementation !== undefined) checkFunction(implementation, "implementation");
    checkObject(options, "options");
    const { getter = false, setter = false, times = Infinity } = options;
    if (typeof getter !== "boolean") throw invalidType("options.getter", "of type boolean", getter);
    if (typeof setter !== "boolean") throw invalidType("options.setter", "of type boolean", setter);
    checkCount(times, "options.times", 1);
    if (getter && setter) {
      throw Object.assign(new TypeError("The property 'options.setter' cannot be used with 'options.getter'. Received true"), { code: "ERR_INVALID_ARG_VALUE" });
    }
    let owner = object;
    let descriptor;
    while (owner !== null && (descriptor = Object.getOwnPropertyDescriptor(owner, methodName)) === undefined) {
      owner = Object.getPrototypeOf(owner);
    }
    const original = getter ? descriptor?.get : setter ? descriptor?.set : descriptor?.value;
    if (typeof original !== "function") {
      throw Object.assign(new TypeError(`The argument 'methodName' must be a method. Received ${show(original)}`), { code: "ERR_INVALID_ARG_VALUE" });
    }
    const restore = { object, methodName, descriptor, inherited: owner !== object };
    const context = new MockFunctionContext(implementation ?? original, restore, times);
    const mocked = this.#setUp(context, original);
    const replacement = { configurable: descriptor.configurable, enumerable: descriptor.enumerable };
    if (getter) Object.assign(replacement, { get: mocked, set: descriptor.set });
    else if (setter) Object.assign(replacement, { get: descriptor.get, set: mocked });
    else Object.assign(replacement, { value: mocked, writable: descriptor.writable });
    Object.defineProperty(object, methodName, replacement);
    return mocked;
  }

  getter(object, methodName, implementation = undefined, options = {}) {
    if (implementation !== null && typeof implementation === "object") [options, implementation] = [implementation, undefined];
    return this.method(object, methodName, implementation, { ...options, getter: true });
  }

  setter(object, methodName, implementation = undefined, options = {}) {
    if (implementation !== null && typeof implementation === "object") [options, implementation] = [implementation, undefined];
    return this.method(object, methodName, implementation, { ...options, setter: true });
  }

  /** Restores every mock this tracker made; they stay usable (a function mock runs its original). */
  restoreAll() {
    for (const context of this.#mocks) context.restore();
  }

  /** restoreAll(), and forgets them. */
  reset() {
    this.restoreAll();
    this.#mocks = [];
  }

  #setUp(context, original) {
    const record = (call) => MockFunctionContext.track(context, call);
    const mocked = new Proxy(original, {
      apply(_, thisArg, args) {
        const implementation = MockFunctionContext.next(context);
        let result;
        let error;
        try {
          result = Reflect.apply(implementation, thisArg, args);
        } catch (thrown) {
          error = thrown;
          throw thrown;
        } finally {
          record({ __proto__: null, arguments: args, error, result, stack: new Error(), target: undefined, this: thisArg });
        }
        return result;
      },
      construct(target, args, newTarget) {
        const implementation = MockFunctionContext.next(context);
        let result;
        let error;
        try {
          result = Reflect.construct(implementation, args, newTarget);
        } catch (thrown) {
          error = thrown;
          throw thrown;
        } finally {
          record({ __proto__: null, arguments: args, error, result, stack: new Error(), target, this: result });
        }
        return result;
      },
      get(target, property, receiver) {
        return property === "mock" ? context : Reflect.get(target, property, receiver);
      },
    });
    this.#mocks.push(context);
    return mocked;
  }
}

const mock = new MockTracker();

// ---- install ----------------------------------------------------------------------------------

const globals = {
  test, it: test, describe,
  beforeEach: addHook("beforeEach"), afterEach: addHook("afterEach"),
  beforeAll: addHook("beforeAll"), afterAll: addHook("afterAll"),
  expect, mock,
};
for (const [name, value] of Object.entries(globals)) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}
Object.defineProperty(globalThis, "__hybridTest", {
  value: Object.freeze({ run, openWork }), writable: false, configurable: true, enumerable: false,
});
