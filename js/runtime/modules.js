"use strict";
// CommonJS modules for app code, resolved as node resolves relative requires: "./cart" tries
// cart, cart.js, cart.json, cart/index.js. One module object per resolved file (the cache), and a
// cycle sees the partial exports of the module still loading, as in node.
const cache = new Map();

function isPath(request) {
  return request.startsWith("./") || request.startsWith("../") || request.startsWith("/");
}

function makeRequire(parent) {
  function require(request) {
    return load(resolve(request), parent).exports;
  }
  function resolve(request) {
    if (typeof request !== "string" || request === "") {
      throw new TypeError(`require: expected a module path such as "./cart", got ${typeof request}`);
    }
    const filename = isPath(request) ? native.resolveModule(parent.path, request) : null;
    if (filename === null) {
      const hint = isPath(request) ? "" : " (only relative paths such as \"./cart\" are supported)";
      const error = new Error(`Cannot find module '${request}' required from ${parent.filename}${hint}`);
      error.code = "MODULE_NOT_FOUND";
      throw error;
    }
    return filename;
  }
  require.resolve = resolve;
  require.cache = cache;
  return require;
}

function load(filename, parent) {
  const cached = cache.get(filename);
  if (cached) return cached;
  const module = {
    id: filename, filename, path: native.dirname(filename),
    exports: {}, loaded: false, parent, children: [],
  };
  if (parent) parent.children.push(module);
  cache.set(filename, module);
  try {
    const source = native.readFile(filename);
    if (filename.endsWith(".json")) {
      try {
        module.exports = JSON.parse(source);
      } catch (error) {
        throw new SyntaxError(`${filename}: ${error.message}`);
      }
    } else {
      const body = native.compileModule(source, filename);
      body.call(module.exports, module.exports, makeRequire(module), module, filename, module.path);
    }
    module.loaded = true;
  } catch (error) {
    cache.delete(filename);
    throw error;
  }
  return module;
}

Object.defineProperty(globalThis, "__hybridModules", {
  value: Object.freeze({
    /** Loads the app's main module (an absolute path) and returns its exports. */
    runMain: (filename) => load(filename, null).exports,
    cache,
  }),
});
