"use strict";
// Browser globals JavaScriptCore does not ship on its own: queueMicrotask and performance.now.

function define(name, value) {
  if (globalThis[name] === undefined) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  }
}

define("queueMicrotask", function queueMicrotask(callback) {
  if (typeof callback !== "function") {
    throw new TypeError("queueMicrotask: expected a function");
  }
  // An exception in the callback surfaces as an unhandled rejection, which ends the run as an
  // uncaught error would.
  Promise.resolve().then(callback);
});

const origin = native.now();
define("performance", Object.freeze({
  timeOrigin: Date.now(),
  now: () => native.now() - origin,
}));
