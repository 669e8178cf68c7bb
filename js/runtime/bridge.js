"use strict";
// The JS half of the bridge. Only JavaScript initiates: every Hybrid.call is a promise
// that native settles exactly once, with a result or with an Error carrying code, target, action
// and path. Subscriptions are long-polls: a loop of calls, each answered by the next event.

const pending = new Map();
let nextId = 1;
// Under `hybrid test`: the harness's ledger of what a test left running (test-harness.js,
// OpenWork), which calls in flight and subscriptions enter; undefined otherwise.
const openWork = () => globalThis.__hybridTest?.openWork;

/** The error a rejected call rejects with: an Error with the bridge's fields set. */
class HybridError extends Error {
  constructor({ code, message, target, action, path, details }) {
    super(message);
    this.name = "HybridError";
    this.code = code;
    this.target = target;
    this.action = action;
    if (path !== undefined) this.path = path;
    if (details !== undefined) this.details = details;
  }
}

// Native answers pending calls here: once per call, from the event loop.
const PENDING = {};
const FAILED = {};
native.attach(function settle(id, ok, value) {
  const call = pending.get(id);
  if (call === undefined) return;
  pending.delete(id);
  if (call.ticket !== undefined) openWork()?.close(call.ticket);
  if (call.onAbort) call.signal.removeEventListener("abort", call.onAbort);
  if (ok) call.resolve(value);
  else call.reject(failure(value, call.site));
}, PENDING, FAILED);

// The error of a call that fails after it was sent. Only `settle` is on the stack by then, so the
// error takes the stack of the call's site, captured when the call was made (what an async stack
// trace would show): an uncaught one names the app's line that made the call.
function failure(answer, site) {
  const error = new HybridError(answer);
  // Where it was thrown (JavaScriptCore's own properties) is the site's top frame, as for an error
  // thrown at once.
  for (const key of ["stack", "line", "column", "sourceURL"]) {
    Object.defineProperty(error, key, { value: site[key], writable: true, configurable: true });
  }
  return error;
}

// Route numbers native assigned to each target.action, so calls do no string work natively.
const routes = new Map();
function routeOf(target, action) {
  let byAction = routes.get(target);
  if (byAction === undefined) routes.set(target, (byAction = new Map()));
  let route = byAction.get(action);
  if (route === undefined) byAction.set(action, (route = native.route(String(target), String(action))));
  return route;
}

// Sends one call: an inline action's answer itself, a promise for one that answers later through
// settle, or a HybridError thrown for a refusal known at once. Under `hybrid test`, a call that
// answers later is entered in `openWork()` (the test harness's ledger of what a test left
// running) until it settles or is cancelled, unless `untracked` (a subscription's own turns: the
// subscription is entered instead).
function send(target, action, params, timeoutMs, signal, paramsText, untracked) {
  const id = nextId++;
  const answer = native.call(id, routeOf(target, action), params, timeoutMs, paramsText);
  if (answer === FAILED) throw new HybridError(native.takeError());
  if (answer !== PENDING) return answer;
  // The caller's stack, for the error should the call fail (a stack walk: some 0.2 µs a call).
  const site = new Error();
  return new Promise((resolve, reject) => {
    const entry = { resolve, reject, site };
    const ledger = openWork();
    if (ledger !== undefined && !untracked) {
      // Closed by the harness: cancelled, and its promise left unsettled, since no one awaits it now.
      entry.ticket = ledger.open("call in flight", `${target}.${action}`, site, () => {
        pending.delete(id);
        native.cancel(id);
      });
    }
    if (signal) {
      entry.signal = signal;
      entry.onAbort = () => {
        if (entry.ticket !== undefined) openWork()?.close(entry.ticket);
        native.cancel(id);
      };
      signal.addEventListener("abort", entry.onAbort);
    }
    pending.set(id, entry);
  });
}

// The JSON text of params made of strings, booleans, null, finite numbers other than -0 and plain
// objects of them (own members only, 2 levels below params at most, 64 members each, strings of
// 256 characters at most), written as each member is read, once; undefined for anything else,
// which native walks. Walking costs about a dozen engine calls a member (fetch's params with 3
// headers: 50); the text costs 4 and a parse. What it uses is taken now, before a program can
// replace it.
const plainMembers = 64;
const plainStringLength = 256;
const { getPrototypeOf, hasOwn, prototype: objectPrototype } = Object;
const { isFinite } = Number;
const stringify = JSON.stringify;
function plainText(object, depth) {
  const prototype = getPrototypeOf(object);
  if (prototype !== null && prototype !== objectPrototype) return undefined;
  let text = "{";
  let count = 0;
  for (const key in object) {
    // An inherited enumerable member is one the walk sends too: left to it.
    if (!hasOwn(object, key) || ++count > plainMembers) return undefined;
    const value = object[key];
    let written;
    switch (typeof value) {
      case "string":
        // A long string is read once by the walk; as text it is escaped, copied and parsed: past
        // some 500 characters that costs more than the walk saves (a 1,000-character one, 1.8 µs).
        if (value.length > plainStringLength) return undefined;
        written = stringify(value);
        break;
      case "boolean":
        written = value ? "true" : "false";
        break;
      case "number":
        // -0, NaN and the infinities are not JSON's.
        if (value !== 0 ? !isFinite(value) : 1 / value < 0) return undefined;
        written = stringify(value);
        break;
      case "object":
        if (value === null) written = "null";
        else if (depth === 0 || (written = plainText(value, depth - 1)) === undefined) return undefined;
        break;
      default:
        return undefined;
    }
    text += (count === 1 ? "" : ",") + stringify(key) + ":" + written;
  }
  return text + "}";
}

// plainText of params, or undefined when they are not an object or a getter or proxy of theirs
// throws while it is written: the walk then meets the same throw and refuses the call at that
// member's path.
function paramsText(params) {
  if (params === null || typeof params !== "object") return undefined;
  try {
    return plainText(params, 2);
  } catch {
    return undefined;
  }
}

function call(target, action, params = {}, options = undefined, untracked = false) {
  const signal = options && options.signal;
  if (signal && signal.aborted) {
    return Promise.reject(new HybridError({ code: "E_CANCELLED", message: `${target}.${action} was cancelled before it started`, target, action }));
  }
  try {
    // A promise from send is handed back as it is.
    return Promise.resolve(send(target, action, params, options && options.timeoutMs, signal, paramsText(params), untracked));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * For runtime clients: the answer of an inline action (kv.get) itself rather than a promise of
 * it, or a HybridError thrown. An action that answers later gives a promise, as `call` does.
 * `paramsText`, when given, is JSON.stringify(params) of params the client knows to be plain
 * JSON data (strings, numbers, plain objects): native parses it instead of walking params, which
 * costs a dozen engine calls for even a small object.
 */
function answerNow(target, action, params, paramsText) {
  return send(target, action, params, undefined, undefined, paramsText);
}

/**
 * Calls `target.action` again and again, handing each result to `onEvent`: the way to receive
 * events when native never calls JS on its own. When a result carries `seq` (or `cursor`), the
 * next call asks for what came after it through `since`.
 */
function subscribe(target, action, params, onEvent, options = {}) {
  const controller = new AbortController();
  let stopped = false;
  let since = params && params.since;
  const stop = () => {
    stopped = true;
    controller.abort();
    openWork()?.close(ticket);
  };
  const ticket = openWork()?.open("subscription", `${target}.${action}`, new Error(), stop);
  (async () => {
    while (!stopped) {
      let result;
      try {
        const next = since === undefined ? params : { ...params, since };
        result = await call(target, action, next, { signal: controller.signal }, true);
      } catch (error) {
        if (stopped) return;
        openWork()?.close(ticket);
        if (options.onError) { options.onError(error); return; }
        throw error;
      }
      if (stopped) return;
      if (result && typeof result === "object") {
        if (result.seq !== undefined) since = result.seq;
        else if (result.cursor !== undefined) since = result.cursor;
      }
      await onEvent(result);
    }
  })();
  return { stop };
}

/** The contracts of every registered target, with whether this app may call it. */
async function targets() {
  return (await call("bridge", "describe", {})).targets;
}

// The Hybrid object. Runtime scripts loaded after this one (such as a service's JS client) add
// their namespaces to `native.hybrid`; the host freezes it once they all have run.
const Hybrid = { call, subscribe, targets, HybridError, args: Object.freeze(native.args || []) };
native.hybrid = Hybrid;
native.client = { call, subscribe, answerNow };
Object.defineProperty(globalThis, "Hybrid", { value: Hybrid, enumerable: false });
