"use strict";
// Globals JavaScriptCore does not ship on its own: queueMicrotask and node's timers. (`performance`
// is the web platform's, js/web/performance.js.)

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
  // uncaught error would. Called with no arguments, as HTML says (then would pass one).
  Promise.resolve().then(() => callback());
});

// Timers as node has them. setTimeout and setInterval return a Timeout: `unref()` makes it keep
// the app alive no more (an app with only unref'd timers left ends, their callbacks unrun), `ref()`
// undoes that, `hasRef()` tells which, `refresh()` starts its countdown again from now (a timeout
// that has fired runs once more; a cleared one stays cleared), `close()` clears it. `+timeout` and
// `${timeout}` are its numeric id, which clearTimeout and clearInterval take as well as the object.
// The engine keeps the schedule (`native.startTimer` and its kin, RuntimeInstaller.swift); each
// timer calls `fire` with its Timeout, which calls the callback with the Timeout as `this`.
let fire;
let isTimeout;
const apply = Reflect.apply;
// The Timeouts turned into numbers, while scheduled: what a number given to clearTimeout means
// (node's knownTimersById). Others are never looked up by number, so they are not kept here.
const timeoutsById = new Map();
// Under `hybrid test`: the harness's ledger of what a test left running (test-harness.js,
// OpenWork), which ref'd timers enter while scheduled; undefined otherwise.
const openWork = () => globalThis.__hybridTest?.openWork;

class Timeout {
  #id = 0;
  #callback;
  #delay;
  #repeats;
  #args;
  #refed = true;
  #state = "scheduled"; // then "fired" (a timeout that has run) or "cleared"
  #numbered = false;
  // Under `hybrid test`: the ledger's entry (openWork(), the harness's list of what a test
  // left running) while the timer is scheduled and ref'd, and where it was started.
  #ticket;
  #site;

  constructor(callback, delay, repeats, args) {
    this.#callback = callback;
    this.#delay = delay;
    this.#repeats = repeats;
    this.#args = args;
    this.#id = native.startTimer(fire, delay, repeats, 0, this);
    if (openWork() !== undefined) {
      this.#site = new Error();
      this.#enter();
    }
  }

  #enter() {
    const ledger = openWork();
    if (ledger === undefined || this.#site === undefined || this.#ticket !== undefined) return;
    const label = `${this.#repeats ? "setInterval" : "setTimeout"} of ${this.#delay} ms`;
    this.#ticket = ledger.open("timer", label, this.#site, () => this.close());
  }

  #leave() {
    if (this.#ticket === undefined) return;
    openWork()?.close(this.#ticket);
    this.#ticket = undefined;
  }

  static {
    fire = (timeout) => timeout.#fire();
    isTimeout = (value) => typeof value === "object" && value !== null && #id in value;
  }

  #fire() {
    if (!this.#repeats) {
      this.#state = "fired";
      if (this.#numbered) timeoutsById.delete(this.#id);
      this.#leave();
    }
    apply(this.#callback, this, this.#args);
  }

  ref() {
    if (!this.#refed) {
      this.#refed = true;
      native.refTimer(this.#id, true);
      if (this.#state === "scheduled") this.#enter();
    }
    return this;
  }

  unref() {
    if (this.#refed) {
      this.#refed = false;
      native.refTimer(this.#id, false);
      this.#leave();
    }
    return this;
  }

  hasRef() {
    return this.#refed;
  }

  refresh() {
    if (this.#state === "fired") {
      this.#id = native.startTimer(fire, this.#delay, this.#repeats, this.#id, this);
      this.#state = "scheduled";
      if (!this.#refed) native.refTimer(this.#id, false);
      else this.#enter();
      if (this.#numbered) timeoutsById.set(this.#id, this);
    } else if (this.#state === "scheduled") {
      native.refreshTimer(this.#id);
    }
    return this;
  }

  close() {
    if (this.#state === "scheduled") native.clearTimer(this.#id);
    this.#leave();
    this.#state = "cleared";
    if (this.#numbered) timeoutsById.delete(this.#id);
    return this;
  }

  [Symbol.toPrimitive]() {
    if (!this.#numbered) {
      this.#numbered = true;
      if (this.#state === "scheduled") timeoutsById.set(this.#id, this);
    }
    return this.#id;
  }
}

function schedule(name, callback, delay, args, repeats) {
  if (typeof callback !== "function") {
    const got = callback === null ? "null" : typeof callback;
    throw new TypeError(`${name}: expected a function as the first argument, got ${got}`);
  }
  return new Timeout(callback, delay === undefined ? 0 : Number(delay), repeats, args);
}

function clear(timer) {
  if (isTimeout(timer)) timer.close();
  else if (typeof timer === "number" || typeof timer === "string") timeoutsById.get(Number(timer))?.close();
}

define("setTimeout", function setTimeout(callback, delay, ...args) {
  return schedule("setTimeout", callback, delay, args, false);
});
define("setInterval", function setInterval(callback, delay, ...args) {
  return schedule("setInterval", callback, delay, args, true);
});
define("clearTimeout", function clearTimeout(timer) { clear(timer); });
define("clearInterval", function clearInterval(timer) { clear(timer); });
