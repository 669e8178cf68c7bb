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

function uncaught(error) {
  if (error === null || typeof error !== "object" || typeof error.stack !== "string") return `Uncaught ${inspect(error)}`;
  const stack = error.stack;
  let text;
  try {
    error.stack = trimmed(stack);
    text = inspect(error);
  } catch {
    text = inspect(error);
  } finally {
    try { error.stack = stack; } catch { /* frozen */ }
  }
  // Node's REPL drops the brackets util.inspect puts around an error without frames.
  if (text.startsWith("[") && text.endsWith("]") && !text.includes("\n")) text = text.slice(1, -1);
  return `Uncaught ${text}`;
}

function settle(promise, done) {
  Promise.resolve(promise).then((value) => done(show(value), false), (error) => done(uncaught(error), true));
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

define("__hybridRepl", Object.freeze({ show, settle, uncaught, start }));
