"use strict";
// App modules: CommonJS as node runs it, and ES modules and TypeScript, which the host turns into
// the same shape (native.loadModule: esbuild, cached by content; ARCHITECTURE.md, "ES modules and
// TypeScript"). Resolution is node's (native.resolveModule; ARCHITECTURE.md, "Module resolution"):
// "./cart" tries cart, cart.js, cart.ts, ..., cart/index.js; bare names are looked up in
// node_modules with package.json "exports" (the import or require condition by the requester). One module object per resolved file (the cache), and a
// cycle sees the partial exports of the module still loading, as in node.
//
// An ES module's exports are getters (live bindings) on its module.exports, which is also its
// namespace object. CommonJS seen from an ES module is node's view: `default` is module.exports.
// A module with top-level await gets `module.evaluate`, an async function the loader calls once its
// imports are loaded. An ES module that imports one still evaluating is loaded again in that
// async form, so that it waits too (its imports run first in either form, so nothing of it has
// run twice); `require` of such a module from CommonJS is an error, as in node.
//
// The registry also takes signed patches, one at a time, each relative to the shipped
// code: `amend` sets named functions on a live module's exports object (whoever holds the module
// sees them at the next call), `replace` re-evaluates a module that called `module.hot.accept()`,
// handing state over from `module.hot.dispose(data => ...)` to `module.hot.data`. A patch is
// applied whole or not at all; each applied patch starts a new epoch. The host verifies patches
// and runs `setPatch` as a task of its own, so a swap never lands in the middle of a call.
// `hybrid run --watch` swaps edited files through the same replace path (`reload`, which exists
// only in that mode: unsigned code never reaches a running app otherwise).
const cache = new Map();
/** module.exports -> its module, for `interop` (esbuild's __toESM) to tell ES modules apart. */
const owners = new WeakMap();
/** The namespace objects of ES modules, which console.log prints as node does. */
const namespaces = new WeakSet();

/** An ES module's exports object: null prototype, tagged "Module", `__esModule` for CommonJS readers. */
function namespace() {
  const object = Object.create(null);
  Object.defineProperty(object, Symbol.toStringTag, { value: "Module" });
  Object.defineProperty(object, "__esModule", { value: true });
  namespaces.add(object);
  return object;
}
/** Set by `require.dynamic` for the one require its import() makes: that one may wait. */
let dynamicRequest = null;
/** Thrown from an ES module's imports when one is still evaluating: load it again, async. */
const mustWait = Symbol("the importing module must wait");

function makeRequire(parent) {
  function require(request) {
    return requireFile(resolve(request), request);
  }
  function requireFile(filename, request) {
    const dynamic = dynamicRequest;
    dynamicRequest = null;
    const module = load(filename, parent);
    // module.exports may be any value (`module.exports = "x"`); only an object can be a key.
    const exports = module.exports;
    if (exports !== null && (typeof exports === "object" || typeof exports === "function")) owners.set(exports, module);
    if (!module.loaded) earlyNamespace(module.exports);
    if (module.evaluation && !module.evaluated) {
      if (dynamic) dynamic.waitFor = module.evaluation;
      else if (parent && parent.dependencies) {
        parent.dependencies.push(module.evaluation);
        parent.awaited.push(module);
      } else if (parent && parent.format === "module" && !parent.loaded) throw mustWait;
      else {
        const error = new Error(`${module.filename} awaits at top level, so ${parent ? parent.filename : "the host"} cannot require it before it has finished; load it with \`await import("${request}")\``);
        error.code = "ERR_REQUIRE_ASYNC_MODULE";
        throw error;
      }
    }
    return module.exports;
  }
  function resolve(request, kind = parent && parent.format === "module" ? "import" : "require") {
    if (typeof request !== "string" || request === "") {
      throw new TypeError(`require: expected a module specifier such as "./cart" or "semver", got ${request === "" ? "\"\"" : typeof request}`);
    }
    return native.resolveModule(parent ? parent.filename : "", request, kind);
  }
  require.resolve = resolve;
  require.cache = cache;
  require.interop = interop;
  require.namespace = namespace;
  require.helpers = helpers;
  /** import(): `load` runs the module's require in a later microtask; waits for its top-level await. */
  require.dynamic = (load) => Promise.resolve().then(() => {
    const request = (dynamicRequest = { waitFor: null });
    let namespace;
    try {
      namespace = load();
    } finally {
      dynamicRequest = null;
    }
    return request.waitFor ? request.waitFor.then(() => namespace) : namespace;
  });
  /**
   * `import(request)` written in CommonJS, which the host rewrites to this (ScriptSources'
   * CommonJSDynamicImport): resolved as an import is, a promise of the namespace as an ES module
   * sees it (CommonJS: `default` is module.exports), after the module's top-level await.
   */
  require.import = (request) => require.dynamic(() => interop(requireFile(resolve(String(request), "import"), request)));
  return require;
}

/**
 * esbuild's runtime helpers, defined once for every transformed module (ModuleTransformer takes
 * them from here instead of each module compiling its own), as esbuild writes them but for
 * __defProp (exports configurable, for patches), __toESM (interop, below) and __toCommonJS (a
 * namespace object).
 */
const helpers = (() => {
  const __defProp = (o, k, d) => Object.defineProperty(o, k, { ...d, configurable: true });
  const __getOwnPropDesc = Object.getOwnPropertyDescriptor;
  const __getOwnPropNames = Object.getOwnPropertyNames;
  const __hasOwnProp = Object.prototype.hasOwnProperty;
  const __copyProps = (to, from, except, desc) => {
    if (from && typeof from === "object" || typeof from === "function") {
      for (const key of __getOwnPropNames(from)) {
        if (!__hasOwnProp.call(to, key) && key !== except) {
          __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
        }
      }
    }
    return to;
  };
  return Object.freeze({
    __create: Object.create,
    __defProp,
    __getOwnPropDesc,
    __getOwnPropNames,
    __getProtoOf: Object.getPrototypeOf,
    __hasOwnProp,
    __export: (target, all) => {
      for (const name in all) __defProp(target, name, { get: all[name], enumerable: true });
    },
    __copyProps,
    __reExport: (target, mod, secondTarget) =>
      (__copyProps(target, mod, "default"), secondTarget && __copyProps(secondTarget, mod, "default")),
    __toESM: (mod) => interop(mod),
    __toCommonJS: (mod) => __copyProps(namespace(), mod),
    /**
     * `__toCommonJS` of what `__export` made, as one call (ModuleTransformer.liveExports): the
     * namespace's getters read the module's bindings through `read(i)`, one function per module
     * instead of an arrow per export, each of which JavaScriptCore compiles. Same names, order,
     * and attributes as __copyProps gives (a name the namespace has, `__esModule`, is skipped).
     *
     * With `settled` (a "1" per export whose binding never changes once the module has run, as
     * the transform found), nothing is defined until the module's last line calls
     * `__exportSettle` with those bindings' values: they become plain values, the rest getters.
     * A namespace required before then (a cycle) gets every export as a getter at once.
     */
    __exportLive: (names, read, settled) => {
      const target = namespace();
      if (settled === undefined) defineExports(target, names, read, "", null);
      else unsettled.set(target, { names, read, settled, early: false });
      return target;
    },
    __exportSettle: (target, values) => {
      const pending = unsettled.get(target);
      if (pending === undefined) return;
      unsettled.delete(target);
      defineExports(target, pending.names, pending.read, pending.settled, values, pending.early);
    },
  });
})();

/** ES module namespaces between `__exportLive` and `__exportSettle` -> what to define on them. */
const unsettled = new WeakMap();

/**
 * Defines a namespace's exports in their order: those `settled` marks as values (from `values`,
 * in turn), the rest as getters through `read`; with `early`, the getters are there already and
 * only the values replace theirs.
 */
function defineExports(target, names, read, settled, values, early = false) {
  for (let i = 0, next = 0; i < names.length; i++) {
    const name = names[i];
    if (settled.charCodeAt(i) === 49) {
      const value = values[next++];
      if (early ? name !== "__esModule" : !helpers.__hasOwnProp.call(target, name)) {
        Object.defineProperty(target, name, { value, enumerable: true, writable: false, configurable: true });
      }
    } else if (!early && !helpers.__hasOwnProp.call(target, name)) {
      Object.defineProperty(target, name, { get: () => read(i), enumerable: true, configurable: true });
    }
  }
}

/** A namespace handed out before its module finished (a cycle): every export live until then. */
function earlyNamespace(target) {
  const pending = unsettled.get(target);
  if (pending === undefined || pending.early) return;
  pending.early = true;
  defineExports(target, pending.names, pending.read, "", null);
}

/**
 * How an ES module sees what it imports (esbuild's __toESM, replaced): an ES module's own
 * module.exports, which is live; CommonJS as node shows it, `default` being module.exports and
 * its own enumerable properties named exports.
 */
function interop(exports) {
  const owner = exports !== null && (typeof exports === "object" || typeof exports === "function") ? owners.get(exports) : undefined;
  if (owner && owner.format === "module") return exports;
  const view = namespace();
  if (exports !== null && (typeof exports === "object" || typeof exports === "function")) {
    for (const key of Object.keys(exports)) {
      if (key !== "default") Object.defineProperty(view, key, { get: () => exports[key], enumerable: true });
    }
  }
  Object.defineProperty(view, "default", { value: exports, enumerable: true });
  return view;
}

function makeModule(filename, parent, data) {
  const module = {
    id: filename, filename, path: native.dirname(filename),
    exports: {}, loaded: false, parent, children: [],
  };
  const disposers = [];
  module.hot = {
    accepted: false,
    /** What the module this one replaces left in its dispose handlers; {} on a first load. */
    data,
    epoch: patches.epoch,
    accept() { this.accepted = true; },
    dispose(handler) { disposers.push(handler); },
  };
  Object.defineProperty(module, "disposers", { value: disposers });
  // import.meta, for code transformed from an ES module (a patch's too), made on first use.
  let meta;
  Object.defineProperty(module, "meta", { get: () => (meta ??= importMeta(module)), configurable: true });
  return module;
}

function load(filename, parent) {
  const cached = cache.get(filename);
  if (cached) return cached;
  if (!linked.has(filename)) link(filename);
  const module = makeModule(filename, parent, {});
  if (parent) parent.children.push(module);
  cache.set(filename, module);
  try {
    const overlay = patches.overlays.get(filename);
    if (overlay && overlay.mode === "replace") {
      overlay.body.call(module.exports, module.exports, makeRequire(module), module, filename, module.path);
    } else if (filename.endsWith(".json")) {
      const source = native.readFile(filename);
      try {
        module.exports = JSON.parse(source);
      } catch (error) {
        throw new SyntaxError(`${filename}: ${error.message}`);
      }
    } else {
      const compiled = linked.get(filename) ?? native.loadModule(filename, false);
      linked.delete(filename);
      try {
        run(module, compiled);
      } catch (error) {
        if (error !== mustWait) throw error;
        module.exports = {};
        module.children = [];
        run(module, native.loadModule(filename, true));
      }
    }
    if (overlay && overlay.mode === "amend") amend(module, overlay.functions, overlay.version);
    module.loaded = true;
  } catch (error) {
    cache.delete(filename);
    throw error;
  }
  return module;
}

// --- Linking ---------------------------------------------------------------------------------
//
// Before a module runs, the ES modules it imports statically, and theirs, are resolved and
// compiled, and every name a JavaScript ES module imports from another ES module is checked
// against what that one exports, as node links a module graph before it evaluates any of it: an
// import of a file that is not there, a module that does not compile, or a name that is not
// exported stops the app before any of its code has run. native.loadModule gives each ES
// module's `links` (ScriptSources' StaticImport and ExportedNames). CommonJS and JSON are loaded
// but not looked into: names imported from CommonJS are what its module.exports has at run time.

/** filename -> what native.loadModule gave, for modules linked and not yet run. */
const linked = new Map();
/** filename -> {format, exports (names, or null when unknown), stars (resolved filenames)}. */
const shapes = new Map();

/** Links the graph of static imports from `root` (not yet loaded); throws what node would. */
function link(root) {
  const fresh = [];
  const visit = (filename) => {
    if (cache.has(filename) || linked.has(filename) || filename.endsWith(".json") || patches.overlays.has(filename)) return;
    const compiled = native.loadModule(filename, false);
    linked.set(filename, compiled);
    fresh.push(filename);
    const links = compiled.links;
    if (!links) return;
    shapes.set(filename, { format: compiled.format, exports: links.exports, stars: [] });
    for (const request of links.imports) {
      request.filename = native.resolveModule(filename, request.specifier, "import");
      visit(request.filename);
    }
    for (const specifier of links.stars) {
      const star = native.resolveModule(filename, specifier, "import");
      shapes.get(filename).stars.push(star);
      visit(star);
    }
  };
  try {
    visit(root);
    const known = new Map();
    for (const filename of fresh) {
      const links = linked.get(filename).links;
      if (links) checkImports(filename, links.imports, known);
    }
  } catch (error) {
    for (const filename of fresh) {
      linked.delete(filename);
      shapes.delete(filename);
    }
    throw error;
  }
}

/** Node's SyntaxError for the first name `imports` takes that its ES module does not export. */
function checkImports(filename, imports, known) {
  for (const request of imports) {
    if (request.names.length === 0) continue;
    const names = exportNames(request.filename, known, new Set());
    if (names === null) continue;
    const missing = request.names.find((name) => !names.has(name.name));
    if (missing === undefined) continue;
    const error = new SyntaxError(`The requested module '${request.specifier}' does not provide an export named '${missing.name}'`);
    Object.assign(error, { sourceURL: filename, line: missing.line, column: missing.column });
    throw error;
  }
}

/** The names an ES module exports, its `export *`s' included (but `default`); null: unknown. */
function exportNames(filename, known, visiting) {
  if (known.has(filename)) return known.get(filename);
  const shape = shapes.get(filename);
  if (!shape || shape.format !== "module" || !shape.exports || patches.overlays.has(filename)) return null;
  // A cycle of `export *`: what is being gathered further up is gathered there.
  if (visiting.has(filename)) return new Set();
  visiting.add(filename);
  let names = new Set(shape.exports);
  for (const star of shape.stars) {
    const more = exportNames(star, known, visiting);
    if (more === null) {
      names = null;
      break;
    }
    for (const name of more) if (name !== "default") names.add(name);
  }
  visiting.delete(filename);
  if (visiting.size === 0) known.set(filename, names);
  return names;
}

/** Runs a compiled module's code; one that awaits at top level then starts evaluating. */
function run(module, compiled) {
  module.format = compiled.format;
  if (compiled.format === "module") module.exports = namespace();
  if (compiled.topLevelAwait) {
    module.dependencies = [];
    /** The modules in `dependencies`: where to look for the one that never settles. */
    Object.defineProperty(module, "awaited", { value: [], configurable: true });
  }
  compiled.body.call(module.exports, module.exports, makeRequire(module), module, module.filename, module.path);
  if (compiled.topLevelAwait) evaluate(module);
}

/** `import.meta` of an ES module: its file URL, filename and folder, and `resolve`. */
function importMeta(module) {
  const url = "file://" + encodeURI(module.filename).replace(/[?#]/g, encodeURIComponent);
  const require = makeRequire(module);
  return {
    url, filename: module.filename, dirname: module.path,
    resolve: (request) => "file://" + encodeURI(require.resolve(request)).replace(/[?#]/g, encodeURIComponent),
  };
}

/**
 * Runs a top-level-await module's body (module.evaluate, written by the transform): it defines the
 * exports as getters first, then waits for the modules it imported that await too, then runs.
 */
function evaluate(module) {
  const define = (getters) => {
    for (const [name, get] of Object.entries(getters)) {
      Object.defineProperty(module.exports, name, { get, enumerable: true, configurable: true });
    }
  };
  define.dependencies = module.dependencies;
  define.done = () => { module.evaluated = true; };
  /** Each top-level await hands its operand through here (TopLevelAwaitRewrite.marking). */
  define.at = (line, column, value) => {
    Object.defineProperty(module, "waitingAt", { value: { line, column }, configurable: true, writable: true });
    return value;
  };
  const body = module.evaluate;
  delete module.evaluate;
  module.evaluation = body(define);
  module.evaluation.then(() => { module.evaluated = true; }, () => { module.failed = true; });
}

/**
 * Node's warning for a main module whose top-level await never settled, once the event loop has
 * nothing left to do: for each module of its static graph still waiting on its own `await` (not
 * on an import's), where it waits, its line and a caret, as node 22 prints it (node 20 exits 13
 * without a word). Null when the main module has settled, or never awaited.
 */
function stalledAwaits(main) {
  if (!main || !main.evaluation || main.evaluated || main.failed) return null;
  const stalled = [];
  const seen = new Set();
  const visit = (module) => {
    if (seen.has(module)) return;
    seen.add(module);
    const pending = (module.awaited || []).filter((other) => other.evaluation && !other.evaluated && !other.failed);
    if (pending.length > 0) pending.forEach(visit);
    else stalled.push(module);
  };
  visit(main);
  return stalled.map((module) => {
    const url = "file://" + encodeURI(module.filename).replace(/[?#]/g, encodeURIComponent);
    const at = module.waitingAt;
    if (!at) return `Warning: Detected unsettled top-level await at ${url}\n`;
    let text = "";
    try {
      text = native.readFile(module.filename).split("\n")[at.line - 1] ?? "";
    } catch {}
    return `Warning: Detected unsettled top-level await at ${url}:${at.line}\n${text}\n${" ".repeat(at.column - 1)}^\n\n`;
  }).join("");
}

// --- Patches ---------------------------------------------------------------------------------

const patches = {
  version: 0,
  epoch: 0,
  /** filename -> {mode, version, body (replace) or functions (amend)}: the current patch. */
  overlays: new Map(),
  /** filename -> Map(key -> property descriptor, or undefined): shipped members an amend replaced. */
  shipped: new Map(),
  /** Called with (version, filename, key, error) when an amended function throws. */
  onFault: null,
};

/** A patch refused whole: nothing was changed. */
function patchError(code, message) {
  const error = new Error(message);
  error.name = "PatchRefusal";
  error.code = code;
  return error;
}

/** Wraps an amended function so that a throw is counted against its patch, then rethrown. */
function guard(fn, filename, key, version) {
  const guarded = function (...args) {
    try {
      return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
    } catch (error) {
      if (patches.onFault) patches.onFault(version, filename, key, error);
      throw error;
    }
  };
  Object.defineProperty(guarded, "name", { value: fn.name || key });
  return guarded;
}

function amend(module, functions, version) {
  let saved = patches.shipped.get(module.filename);
  if (!saved) patches.shipped.set(module.filename, (saved = new Map()));
  for (const [key, fn] of Object.entries(functions)) {
    if (!saved.has(key)) saved.set(key, Object.getOwnPropertyDescriptor(module.exports, key));
    // A data property even where an ES module's export is a getter (the transform makes those
    // configurable), so that importers, which read the export at each use, call the new function.
    Object.defineProperty(module.exports, key, {
      value: guard(fn, module.filename, key, version), writable: true, enumerable: true, configurable: true,
    });
  }
}

/** Puts back the shipped members an amend replaced, except those in `keep`. */
function unamend(module, keep) {
  const saved = patches.shipped.get(module.filename);
  if (!saved) return;
  for (const [key, descriptor] of saved) {
    if (keep && Object.prototype.hasOwnProperty.call(keep, key)) continue;
    if (descriptor) Object.defineProperty(module.exports, key, descriptor);
    else delete module.exports[key];
    saved.delete(key);
  }
}

/** Evaluates an amend's source in a module of its own; its function exports are the amendment. */
function amendment(filename, body) {
  const scratch = makeModule(filename, null, {});
  body.call(scratch.exports, scratch.exports, makeRequire(scratch), scratch, filename, scratch.path);
  const functions = {};
  for (const [key, value] of Object.entries(scratch.exports)) {
    if (typeof value === "function") functions[key] = value;
  }
  return functions;
}

/**
 * The replace path: re-evaluates `live`'s file in a new module, `evaluate(next)` running the new
 * code, handing state over from `live`'s dispose handlers to `next.hot.data`.
 */
function swap(live, evaluate, epoch) {
  const data = {};
  for (const handler of live.disposers) handler(data);
  const next = makeModule(live.filename, live.parent, data);
  next.format = live.format;
  // Its exports may change: importers linked later check nothing against it.
  shapes.delete(live.filename);
  next.hot.epoch = epoch;
  cache.set(live.filename, next);
  try {
    evaluate(next);
  } catch (error) {
    cache.set(live.filename, live);
    throw error;
  }
  next.loaded = true;
  return next;
}

/**
 * Makes `changes` ([{filename, mode, source}]) the current patch, in place of the one before:
 * modules the old patch touched and the new one does not go back to their shipped code. All
 * checks and evaluations come first; an error leaves every module as it was (a replaced module's
 * dispose handlers will have run). Returns the new epoch.
 */
function setPatch(version, changes, onFault) {
  const next = new Map();
  for (const change of changes) {
    if (change.mode !== "amend" && change.mode !== "replace") {
      throw patchError("E_PATCH_MODE", `${change.filename}: mode: expected "amend" or "replace", got ${change.mode}`);
    }
    next.set(change.filename, { ...change, version });
  }
  // Modules whose code changes: replaced now, replaced before, or amended after a replace.
  const reloads = [];
  for (const filename of new Set([...patches.overlays.keys(), ...next.keys()])) {
    const before = patches.overlays.get(filename);
    const after = next.get(filename);
    const live = cache.get(filename);
    if (!live) continue;
    if ((after && after.mode === "replace") || (before && before.mode === "replace")) {
      if (!live.hot.accepted) {
        throw patchError("E_NOT_ACCEPTED", `${filename} has not called module.hot.accept(), so it cannot be replaced; the patch was not applied`);
      }
      reloads.push(filename);
    }
  }
  // Compile everything before anything changes.
  for (const overlay of next.values()) {
    overlay.body = native.compileModule(overlay.source, `${overlay.filename}?patch=${version}`);
    delete overlay.source;
  }
  for (const overlay of next.values()) {
    if (overlay.mode === "amend") overlay.functions = amendment(overlay.filename, overlay.body);
  }
  // Swap the reloaded modules; undo the earlier ones if a later one throws.
  const swapped = [];
  try {
    for (const filename of reloads) {
      const live = cache.get(filename);
      const after = next.get(filename);
      const body = after && after.mode === "replace"
        ? after.body
        : native.loadModule(filename, false).body;
      unamend(live);
      swapped.push(live);
      swap(live, (next) => body.call(next.exports, next.exports, makeRequire(next), next, filename, next.path), patches.epoch + 1);
    }
  } catch (error) {
    for (const live of swapped) cache.set(live.filename, live);
    throw error;
  }
  // Amends, and amends the new patch drops.
  for (const [filename, before] of patches.overlays) {
    const live = cache.get(filename);
    if (live && before.mode === "amend" && !reloads.includes(filename)) unamend(live, next.get(filename)?.functions);
  }
  for (const overlay of next.values()) {
    const live = cache.get(overlay.filename);
    if (live && overlay.mode === "amend") amend(live, overlay.functions, version);
  }
  patches.overlays = next;
  patches.version = version;
  patches.onFault = onFault || patches.onFault;
  return ++patches.epoch;
}

// --- Watch mode ------------------------------------------------------------------------------

/**
 * `hybrid run --watch` only (the host installs this function for no other run): swaps changed
 * files the app has loaded in place, read from disk and transformed exactly as loading does
 * (native.loadModule), through the replace path signed patches take. Not a patch: no version, no
 * epoch, nothing recorded. Files the cache does not hold are not the running app's and are left
 * alone. In order, each step deciding for the whole change:
 * - a changed module that does not compile (or JSON that does not parse): nothing changed,
 *   `{outcome: "invalid", filename, error}`;
 * - one that cannot be swapped in place (the main module, JSON, no module.hot.accept(), a signed
 *   patch in effect, top-level await): nothing changed, `{outcome: "restart", filename, reason}`;
 * - else every one is swapped, `{outcome: "swapped", filenames}`; a module that throws while
 *   evaluating throws here (its dispose handlers have run: the host restarts the app).
 * Nothing in the cache: `{outcome: "unchanged"}`.
 */
function reload(filenames) {
  const changed = [...new Set(filenames)].map((filename) => cache.get(filename)).filter(Boolean);
  if (changed.length === 0) return { outcome: "unchanged" };
  const compiled = new Map();
  for (const module of changed) {
    try {
      if (module.filename.endsWith(".json")) JSON.parse(native.readFile(module.filename));
      else compiled.set(module, native.loadModule(module.filename, false));
    } catch (error) {
      return { outcome: "invalid", filename: module.filename, error };
    }
  }
  for (const module of changed) {
    const reason = module.parent === null || module.filename.endsWith(".json") ? "changed"
      : !module.hot.accepted ? "did not call module.hot.accept()"
      : patches.overlays.has(module.filename) ? `runs signed patch ${patches.version}`
      : compiled.get(module).topLevelAwait ? "awaits at top level"
      : null;
    if (reason) return { outcome: "restart", filename: module.filename, reason };
  }
  const swapped = [];
  try {
    for (const live of changed) {
      swapped.push(live);
      swap(live, (next) => run(next, compiled.get(live)), patches.epoch);
    }
  } catch (error) {
    for (const live of swapped) cache.set(live.filename, live);
    throw error;
  }
  return { outcome: "swapped", filenames: changed.map((module) => module.filename) };
}

let mainEvaluation;
Object.defineProperty(globalThis, "__hybridModules", {
  value: Object.freeze({
    /**
     * Loads the app's main module (an absolute path) and returns its exports, or for a main module
     * that awaits at top level, a promise of them.
     */
    runMain: (filename) => {
      const main = load(filename, null);
      if (!main.evaluation) return main.exports;
      mainEvaluation = main.evaluation.then(() => main.exports);
      return mainEvaluation;
    },
    /**
     * The promise runMain returned for a main module that awaits at top level: the host reports
     * its rejection as what the module threw, not as an unhandled rejection.
     */
    get mainEvaluation() { return mainEvaluation; },
    /** A `require` as a module at `filename` (which need not exist) would have it: the REPL's. */
    requireFrom: (filename) => makeRequire({ filename, path: native.dirname(filename), children: [], format: "commonjs", loaded: true }),
    cache,
    setPatch,
    ...(native.hotReload === true ? { reload } : {}),
    /** The current patch version (0: the shipped code) and epoch (one more per applied patch). */
    get patchVersion() { return patches.version; },
    get epoch() { return patches.epoch; },
    /** Whether `value` is an ES module's namespace (console.js prints those as node does). */
    isNamespace: (value) => namespaces.has(value),
    /**
     * Once the loop is idle: node's warning (text) if the main module's top-level await never
     * settled, which `hybrid run` prints before it exits 13; else null.
     */
    unsettled: () => stalledAwaits([...cache.values()].find((module) => module.parent === null && module.evaluation)),
  }),
});
