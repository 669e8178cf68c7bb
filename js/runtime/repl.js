// repl.js — what `hybrid repl` runs on the JS thread around each input.
//
// The host (Sources/HybridHost/ReplSession.swift) evaluates each input as a script of its own,
// named REPL1, REPL2, ... as node names them, so that `let` and `const` stay in the global scope,
// then hands the outcome here. `show` writes a completion value as node's REPL does, with
// util.inspect's formatting (console.log's, `__hybridInspect`), and keeps it as `_`; an input that
// awaited at top level ran in an async function, and `settle` writes its value once it settles.
// `uncaught` writes what an input threw as `Uncaught ...`, without the REPL's own frames.
// `complete` answers Tab. Installs `__hybridRepl` (not enumerable); `start` adds `require` (from
// the app's folder) and `app` (the main module's exports), not enumerable either.
"use strict";

const inspect = globalThis.__hybridInspect;
/** Whether a value is a Proxy, asked without running its traps (native; set by `start`). */
let proxyTest = () => false;
const isProxy = (value) => value !== globalThis && proxyTest(value);

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
function start(folder, main, done, nativeProxyTest) {
  if (typeof nativeProxyTest === "function") proxyTest = nativeProxyTest;
  // Also what the inputs' `import(...)` calls go through: ReplInput.dynamicImports makes them
  // `require.import(...)`, as in a CommonJS module (from the app's folder, not the current one).
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

// Tab completion, as node's REPL completes (lib/repl.js `complete`): after `expr.`, the properties
// of the value, own first, then each prototype's; otherwise the global names (the inputs' `let`,
// `const` and `class` names, the global object's and its prototypes'), and keywords once a letter is
// typed. Node evaluates `expr`; this walks it instead, a name and then property after property,
// reading only data properties: a getter or a Proxy on the way ends it with no completions, so
// completing never runs the app's code (node 22 bails out on getters and proxies likewise).
// The answer is one line for the text replaced, then one line per completion, "" between groups.
const identifier = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;
// Node 20's: what Tab replaces, and, before its last dot, the expression whose properties complete it.
const simpleExpression = /(?:[\w$'"`[{(](?:(\w| |\t)*?['"`]|\$|['"`\]})])*\??(?:\.|])?)*?(?:[a-zA-Z_$])?(?:\w|\$)*\??\.?$/;
// The expressions completion reads: a name, a string, `[]` or one of those in brackets, then
// `.name`, `?.name`, `[0]` or `["key"]` steps. Anything else (a call, an operator) completes nothing.
const chainHead = /^(?:([\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*)|'([^'\\]*)'|"([^"\\]*)"|`([^`\\$]*)`|(\[\]))/u;
const chainStep = /^(?:\??\.([\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*)|\[(\d+)\]|\['([^'\\]*)'\]|\["([^"\\]*)"\])/u;
const keywords = ["async", "await", "break", "case", "catch", "const", "continue", "debugger", "default", "delete", "do", "else", "export",
  "false", "finally", "for", "function", "if", "import", "in", "instanceof", "let", "new", "null", "return", "switch", "this", "throw",
  "true", "try", "typeof", "var", "void", "while", "with", "yield"];
const legacyObjectMethods = new Set(["__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__"]);
const unreadable = Symbol("unreadable");
// Taken now, so that an input that replaces them cannot run code through completion.
const { getOwnPropertyDescriptor, getOwnPropertyNames, getPrototypeOf } = Object;
const ObjectPrototype = Object.prototype;
const globalEval = globalThis.eval;

/** The own names of `object` node lists: strings (no symbols), identifiers, not the REPL's own. */
function propertyNames(object) {
  return getOwnPropertyNames(object).filter((name) =>
    identifier.test(name) && !name.startsWith("__hybrid") && !(object === ObjectPrototype && legacyObjectMethods.has(name)));
}

/** The descriptor of `key` on `object` or the nearest prototype that has it; null when none has
 * it; `unreadable` when a Proxy is in the way (asking it would run its traps). */
function lookup(object, key) {
  for (let holder = object; holder !== null; holder = getPrototypeOf(holder)) {
    if (isProxy(holder)) return unreadable;
    const descriptor = getOwnPropertyDescriptor(holder, key);
    if (descriptor) return descriptor;
  }
  return null;
}

/** `object[key]` when that is a data property; `unreadable` for a getter, a Proxy or nothing. */
function dataProperty(object, key) {
  const found = lookup(object, key);
  return found !== null && found !== unreadable && "value" in found ? found.value : unreadable;
}

/** What the global name `name` holds, read without running code; `unreadable` when it cannot be. */
function globalValue(name, lexical) {
  if (name === "this") return globalThis;
  if (!identifier.test(name) || keywords.includes(name)) return unreadable;
  const found = lookup(globalThis, name);
  // A global getter is not called (evaluating its name would call it).
  if (found === unreadable || (found !== null && !("value" in found))) return unreadable;
  // An input's `let`, `const` or `class` is no property: its bare name, evaluated, reads it and
  // can run nothing (a binding never initialized throws).
  if (lexical.includes(name)) {
    try { return globalEval(name); } catch { return unreadable; }
  }
  return found === null ? unreadable : found.value;
}

/** The value of a simple chain (`a.b[0]`, `'text'`, `(a).b`), or `unreadable`. */
function chainValue(expression, lexical) {
  let value;
  let rest;
  const group = /^\(([^()]+)\)/.exec(expression);
  if (group) {
    value = chainValue(group[1].trim(), lexical);
    rest = expression.slice(group[0].length);
  } else {
    const head = chainHead.exec(expression);
    if (!head) return unreadable;
    value = head[1] !== undefined ? globalValue(head[1], lexical) : head[5] ? [] : head[2] ?? head[3] ?? head[4];
    rest = expression.slice(head[0].length);
  }
  while (rest !== "") {
    const step = chainStep.exec(rest);
    if (!step || value === unreadable || value === null || value === undefined) return unreadable;
    value = dataProperty(Object(value), step[1] ?? step[2] ?? step[3] ?? step[4]);
    rest = rest.slice(step[0].length);
  }
  return value;
}

/** The names of `value`'s properties in groups: its own first, then up to five prototypes'. */
function memberGroups(value) {
  const groups = [];
  const object = Object(value);
  if (isProxy(object)) return groups;
  if (typeof value === "object" || typeof value === "function") groups.push(propertyNames(object));
  for (let prototype = getPrototypeOf(object), left = 5; prototype !== null && left > 0; prototype = getPrototypeOf(prototype), left--) {
    if (isProxy(prototype)) break;
    groups.push(propertyNames(prototype));
  }
  return groups;
}

function complete(line, lexicalText) {
  line = line.trimStart();
  const lexical = lexicalText === "" ? [] : lexicalText.split("\n");
  let groups = [];
  let completeOn = "";
  let filter = "";
  if (line.length === 0 || /[\w.$]/.test(line[line.length - 1])) {
    const match = simpleExpression.exec(line)?.[0] ?? "";
    if (line.length !== 0 && !match) return answer([], "", "");
    completeOn = match;
    let expression = "";
    if (line.endsWith(".")) {
      expression = match.slice(0, -1);
    } else if (line.length !== 0) {
      const bits = match.split(".");
      filter = bits.pop();
      expression = bits.join(".");
    }
    if (!expression) {
      groups.push(lexical.filter((name) => globalValue(name, lexical) !== unreadable));
      for (let prototype = getPrototypeOf(globalThis); prototype !== null; prototype = getPrototypeOf(prototype)) {
        if (isProxy(prototype)) break;
        groups.push(propertyNames(prototype));
      }
      groups.push(propertyNames(globalThis));
      if (filter !== "") groups.push(keywords.slice());
    } else {
      let chaining = ".";
      if (expression.endsWith("?")) {
        expression = expression.slice(0, -1);
        chaining = "?.";
      }
      const value = chainValue(expression, lexical);
      const members = value === unreadable || value === null || value === undefined ? [] : memberGroups(value);
      if (members.length) {
        const prefix = expression + chaining;
        groups = members.map((group) => group.map((name) => prefix + name));
        if (filter) filter = prefix + filter;
      }
    }
  }
  return answer(groups, filter, completeOn);
}

/** Node's `completionGroupsLoaded`: filtered (case-insensitively), each group sorted, no repeats,
 * the nearest group last, "" between groups. */
function answer(groups, filter, completeOn) {
  if (filter) {
    const lower = filter.toLocaleLowerCase();
    groups = groups.map((group) => group.filter((name) => name.toLocaleLowerCase().startsWith(lower))).filter((group) => group.length > 0);
  }
  const seen = new Set([""]);
  const completions = [];
  for (const group of groups) {
    group.sort((a, b) => (b > a ? 1 : -1));
    const size = seen.size;
    for (const entry of group) {
      if (!seen.has(entry)) {
        completions.unshift(entry);
        seen.add(entry);
      }
    }
    if (seen.size !== size) completions.unshift("");
  }
  if (completions[0] === "") completions.shift();
  return [completeOn, ...completions].join("\n");
}

define("__hybridRepl", Object.freeze({ show, track, settle, uncaught, start, complete }));
