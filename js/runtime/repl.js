// repl.js — what `hybrid repl` runs on the JS thread around each input.
//
// The host (Sources/HybridHost/ReplSession.swift) evaluates each input as a script of its own,
// named REPL1, REPL2, ... as node names them, so that `let` and `const` stay in the global scope,
// then hands the outcome here. `show` writes a completion value as node's REPL does, with
// util.inspect's formatting (console.log's, `__hybridInspect`), and keeps it as `_`; an input that
// awaited at top level ran in an async function, and `settle` writes its value once it settles.
// `uncaught` writes what an input threw as `Uncaught ...`, without the REPL's own frames.
// Installs `__hybridRepl` (not enumerable); `start` adds `require` (from the app's folder) and
// `app` (the main module's exports), not enumerable either.
"use strict";

const inspect = globalThis.__hybridInspect;

function define(name, value) {
  try {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  } catch {
    // `var _` in an input made it the user's: leave it.
  }
}

function show(value) {
  define("_", value);
  return inspect(value);
}

// JavaScriptCore stack lines are `fn@url:line:column`. The input's own top level is `global code`
// in a REPLn script, or the anonymous async function an awaiting input runs in: it and what called
// it (the REPL, promise machinery) are cut, as node cuts everything from the first top-level frame.
function trimmed(stack) {
  const frames = stack.split("\n");
  const top = frames.findIndex((frame) => /^(global code)?@REPL\d+:/.test(frame) || frame.startsWith("asyncFunctionResume@"));
  return (top === -1 ? frames : frames.slice(0, top)).join("\n");
}

// A copy without JavaScriptCore's `line`, `column` and `sourceURL`, which its syntax errors carry
// as enumerable properties that cannot be redefined (node shows none).
function withoutLocation(error) {
  const located = ["line", "column", "sourceURL"].filter((key) => Object.prototype.propertyIsEnumerable.call(error, key));
  if (located.length === 0) return error;
  const copy = Object.create(Object.getPrototypeOf(error));
  for (const key of Reflect.ownKeys(error)) {
    if (!located.includes(key)) Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(error, key));
  }
  return copy;
}

function uncaught(thrown) {
  if (thrown === null || typeof thrown !== "object") return `Uncaught ${inspect(thrown)}`;
  const error = withoutLocation(thrown);
  const stack = error.stack;
  let text;
  try {
    if (typeof stack === "string") error.stack = trimmed(stack);
    text = inspect(error);
  } catch {
    text = inspect(error);
  } finally {
    if (typeof stack === "string") try { error.stack = stack; } catch { /* frozen */ }
  }
  // Node's REPL drops the brackets util.inspect puts around an error without frames.
  if (text.startsWith("[") && text.endsWith("]") && !text.includes("\n")) text = text.slice(1, -1);
  return `Uncaught ${text}`;
}

// An awaiting input's promise is handed to `track` inside the input's own script, so that its
// rejection has a handler before the microtasks run at the end of the evaluation (one added
// afterwards would come too late: the rejection would be reported as unhandled, then again here).
const outcomes = new WeakMap();

function track(promise) {
  outcomes.set(promise, promise.then((value) => ({ value }), (error) => ({ error, failed: true })));
  return promise;
}

function settle(promise, done) {
  const outcome = outcomes.get(promise) ?? Promise.resolve(promise).then((value) => ({ value }), (error) => ({ error, failed: true }));
  outcome.then((result) => (result.failed ? done(uncaught(result.error), true) : done(show(result.value), false)));
}

// `require` from the app's folder; the main module (none for the scratch app) loaded and, once
// its top-level await is done, its exports as `app`.
function start(folder, main, done) {
  define("require", globalThis.__hybridModules.requireFrom(`${folder}/[repl]`));
  if (!main) return done("", false);
  let loaded;
  try {
    loaded = globalThis.__hybridModules.runMain(main);
  } catch (error) {
    return done(uncaught(error), true);
  }
  const finish = (exports) => { define("app", exports); done("", false); };
  if (loaded instanceof Promise) loaded.then(finish, (error) => done(uncaught(error), true));
  else finish(loaded);
}

define("__hybridRepl", Object.freeze({ show, track, settle, uncaught, start }));
