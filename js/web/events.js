"use strict";
// Events and abort, as the DOM Standard defines them for targets that are not nodes (no tree, so
// an event's path is its target alone): Event, CustomEvent, EventTarget, AbortController and
// AbortSignal; and the global scope as an event target (addEventListener on globalThis, as in a
// worker), where reportError and exceptions thrown by listeners arrive as "error" events
// (ErrorEvent, from the HTML Standard) before they end the run as uncaught exceptions do.

// DOMException is loaded when an error needs one: a program that only dispatches events never does.
const domException = (message, name) => new (internals.get("DOMException"))(message, name);
const now = internals.now;

const NONE = 0;
const CAPTURING_PHASE = 1;
const AT_TARGET = 2;
const BUBBLING_PHASE = 3;

const { requireArguments, dictionary, enumerable, toStringTag, constants } = internals.get("webidl");

// ---- Event -------------------------------------------------------------------------------------

let eventState; // (event) => its internal state, for EventTarget's dispatch

// The time the next event is made at, when the host gives it (`withTimeStamp`); else the clock's.
let presetTimeStamp;

class Event {
  #state;

  constructor(type, eventInitDict = undefined) {
    requireArguments(arguments.length, 1, "Failed to construct 'Event'");
    const init = dictionary(eventInitDict, "Failed to construct 'Event'") ?? {};
    this.#state = {
      type: `${type}`,
      bubbles: !!init.bubbles,
      cancelable: !!init.cancelable,
      composed: !!init.composed,
      target: null,
      currentTarget: null,
      eventPhase: NONE,
      stopPropagation: false,
      stopImmediatePropagation: false,
      canceled: false,
      inPassiveListener: false,
      dispatching: false,
      initialized: true,
      isTrusted: false,
      timeStamp: presetTimeStamp ?? now(),
    };
    // [LegacyUnforgeable]: an own, non-configurable accessor on every instance.
    Object.defineProperty(this, "isTrusted", isTrustedDescriptor);
  }

  static {
    eventState = (event) => {
      if (event === null || typeof event !== "object" || !(#state in event)) return undefined;
      return event.#state;
    };
  }

  get type() { return state(this, "type").type; }
  get target() { return state(this, "target").target; }
  get srcElement() { return state(this, "srcElement").target; }
  get currentTarget() { return state(this, "currentTarget").currentTarget; }
  get eventPhase() { return state(this, "eventPhase").eventPhase; }
  get bubbles() { return state(this, "bubbles").bubbles; }
  get cancelable() { return state(this, "cancelable").cancelable; }
  get composed() { return state(this, "composed").composed; }
  get defaultPrevented() { return state(this, "defaultPrevented").canceled; }
  get timeStamp() { return state(this, "timeStamp").timeStamp; }

  get cancelBubble() { return state(this, "cancelBubble").stopPropagation; }
  set cancelBubble(value) {
    if (value) state(this, "cancelBubble").stopPropagation = true;
  }

  get returnValue() { return !state(this, "returnValue").canceled; }
  set returnValue(value) {
    if (!value) cancel(state(this, "returnValue"));
  }

  composedPath() {
    const s = state(this, "composedPath");
    return s.dispatching && s.currentTarget !== null ? [s.currentTarget] : [];
  }

  stopPropagation() { state(this, "stopPropagation").stopPropagation = true; }

  stopImmediatePropagation() {
    const s = state(this, "stopImmediatePropagation");
    s.stopPropagation = true;
    s.stopImmediatePropagation = true;
  }

  preventDefault() { cancel(state(this, "preventDefault")); }

  initEvent(type, bubbles = false, cancelable = false) {
    requireArguments(arguments.length, 1, "Failed to execute 'initEvent' on 'Event'");
    const s = state(this, "initEvent");
    if (s.dispatching) return;
    Object.assign(s, {
      type: `${type}`, bubbles: !!bubbles, cancelable: !!cancelable, initialized: true,
      stopPropagation: false, stopImmediatePropagation: false, canceled: false, isTrusted: false, target: null,
    });
  }
}

function state(event, member) {
  const s = eventState(event);
  if (s === undefined) throw new TypeError(`Event.prototype.${member}: 'this' is not an Event`);
  return s;
}

function isTrusted() {
  return state(this, "isTrusted").isTrusted;
}
// One descriptor for every event, rather than an object made per event.
const isTrustedDescriptor = Object.freeze({ __proto__: null, get: isTrusted, enumerable: true, configurable: false });

function cancel(s) {
  if (s.cancelable && !s.inPassiveListener) s.canceled = true;
}

constants(Event, [["NONE", NONE], ["CAPTURING_PHASE", CAPTURING_PHASE], ["AT_TARGET", AT_TARGET], ["BUBBLING_PHASE", BUBBLING_PHASE]]);
enumerable(Event.prototype, ["type", "target", "srcElement", "currentTarget", "eventPhase", "bubbles", "cancelable", "composed",
  "defaultPrevented", "timeStamp", "cancelBubble", "returnValue", "composedPath", "stopPropagation",
  "stopImmediatePropagation", "preventDefault", "initEvent"]);
toStringTag(Event.prototype, "Event");

// ---- CustomEvent and ErrorEvent -----------------------------------------------------------------

class CustomEvent extends Event {
  #detail;

  constructor(type, eventInitDict = undefined) {
    requireArguments(arguments.length, 1, "Failed to construct 'CustomEvent'");
    super(type, eventInitDict);
    const init = dictionary(eventInitDict, "Failed to construct 'CustomEvent'") ?? {};
    this.#detail = init.detail === undefined ? null : init.detail;
  }

  get detail() {
    if (!(#detail in this)) throw new TypeError("CustomEvent.prototype.detail: 'this' is not a CustomEvent");
    return this.#detail;
  }

  initCustomEvent(type, bubbles = false, cancelable = false, detail = null) {
    requireArguments(arguments.length, 1, "Failed to execute 'initCustomEvent' on 'CustomEvent'");
    if (!(#detail in this)) throw new TypeError("CustomEvent.prototype.initCustomEvent: 'this' is not a CustomEvent");
    if (eventState(this).dispatching) return;
    this.initEvent(type, bubbles, cancelable);
    this.#detail = detail;
  }
}
enumerable(CustomEvent.prototype, ["detail", "initCustomEvent"]);
toStringTag(CustomEvent.prototype, "CustomEvent");

class ErrorEvent extends Event {
  #init;

  constructor(type, eventInitDict = undefined) {
    requireArguments(arguments.length, 1, "Failed to construct 'ErrorEvent'");
    super(type, eventInitDict);
    const init = dictionary(eventInitDict, "Failed to construct 'ErrorEvent'") ?? {};
    this.#init = {
      message: init.message === undefined ? "" : `${init.message}`,
      filename: init.filename === undefined ? "" : `${init.filename}`,
      lineno: init.lineno === undefined ? 0 : init.lineno >>> 0,
      colno: init.colno === undefined ? 0 : init.colno >>> 0,
      error: init.error,
    };
  }

  static #of(event, member) {
    if (event === null || typeof event !== "object" || !(#init in event)) {
      throw new TypeError(`ErrorEvent.prototype.${member}: 'this' is not an ErrorEvent`);
    }
    return event.#init;
  }

  get message() { return ErrorEvent.#of(this, "message").message; }
  get filename() { return ErrorEvent.#of(this, "filename").filename; }
  get lineno() { return ErrorEvent.#of(this, "lineno").lineno; }
  get colno() { return ErrorEvent.#of(this, "colno").colno; }
  get error() { return ErrorEvent.#of(this, "error").error; }
}
enumerable(ErrorEvent.prototype, ["message", "filename", "lineno", "colno", "error"]);
toStringTag(ErrorEvent.prototype, "ErrorEvent");

// ---- EventTarget -------------------------------------------------------------------------------

let listenersOf; // (target) => its listener list, or undefined for what is not an EventTarget

function flattenCapture(options) {
  if (typeof options === "boolean") return options;
  if (options !== null && typeof options === "object") return !!options.capture;
  return !!options;
}

class EventTarget {
  #listeners = [];

  constructor() {}

  static {
    listenersOf = (target) => {
      if (target === null || (typeof target !== "object" && typeof target !== "function") || !(#listeners in target)) return undefined;
      return target.#listeners;
    };
  }

  addEventListener(type, callback, options = undefined) {
    requireArguments(arguments.length, 2, "Failed to execute 'addEventListener' on 'EventTarget'");
    const listeners = targetListeners(this, "addEventListener");
    const capture = flattenCapture(options);
    let once = false;
    let passive = false;
    let signal = null;
    if (options !== null && typeof options === "object") {
      once = !!options.once;
      passive = !!options.passive;
      if (options.signal !== undefined) {
        signal = options.signal;
        if (!isAbortSignal(signal)) {
          throw new TypeError("Failed to execute 'addEventListener' on 'EventTarget': member signal is not of type AbortSignal");
        }
      }
    }
    if (callback === null) return;
    if (typeof callback !== "function" && typeof callback !== "object") {
      throw new TypeError("Failed to execute 'addEventListener' on 'EventTarget': parameter 2 is not of type 'Object'");
    }
    if (signal !== null && signal.aborted) return;
    type = `${type}`;
    if (listeners.some((l) => l.type === type && l.callback === callback && l.capture === capture)) return;
    const listener = { type, callback, capture, once, passive, removed: false };
    listeners.push(listener);
    if (signal !== null) {
      addAbortAlgorithm(signal, () => removeListener(listeners, listener));
    }
  }

  removeEventListener(type, callback, options = undefined) {
    requireArguments(arguments.length, 2, "Failed to execute 'removeEventListener' on 'EventTarget'");
    const listeners = targetListeners(this, "removeEventListener");
    const capture = flattenCapture(options);
    type = `${type}`;
    const listener = listeners.find((l) => l.type === type && l.callback === callback && l.capture === capture);
    if (listener) removeListener(listeners, listener);
  }

  dispatchEvent(event) {
    requireArguments(arguments.length, 1, "Failed to execute 'dispatchEvent' on 'EventTarget'");
    targetListeners(this, "dispatchEvent");
    const s = eventState(event);
    if (s === undefined) {
      throw new TypeError("Failed to execute 'dispatchEvent' on 'EventTarget': parameter 1 is not of type 'Event'");
    }
    if (s.dispatching || !s.initialized) {
      throw domException("The event is already being dispatched, or was not initialized", "InvalidStateError");
    }
    s.isTrusted = false;
    return dispatch(this, event, s);
  }
}
enumerable(EventTarget.prototype, ["addEventListener", "removeEventListener", "dispatchEvent"]);
toStringTag(EventTarget.prototype, "EventTarget");

function targetListeners(target, member) {
  // The global scope dispatches through its own target (below).
  if (target === undefined || target === null || target === globalThis) target = globalTarget;
  const listeners = listenersOf(target);
  if (listeners === undefined) throw new TypeError(`EventTarget.prototype.${member}: 'this' is not an EventTarget`);
  return listeners;
}

function removeListener(listeners, listener) {
  listener.removed = true;
  const index = listeners.indexOf(listener);
  if (index >= 0) listeners.splice(index, 1);
}

function dispatch(target, event, s) {
  s.dispatching = true;
  s.target = target === globalTarget ? globalThis : target;
  s.currentTarget = s.target;
  s.eventPhase = AT_TARGET;
  const listeners = listenersOf(target);
  // At the target, capturing listeners run first, then the others (the DOM Standard's order).
  invoke(listeners, event, s, true);
  if (!s.stopPropagation) invoke(listeners, event, s, false);
  s.eventPhase = NONE;
  s.currentTarget = null;
  s.dispatching = false;
  s.stopPropagation = false;
  s.stopImmediatePropagation = false;
  return !s.canceled;
}

function invoke(listeners, event, s, capturePhase) {
  for (const listener of listeners.slice()) {
    if (listener.removed || listener.type !== s.type || listener.capture !== capturePhase) continue;
    if (listener.once) removeListener(listeners, listener);
    if (listener.passive) s.inPassiveListener = true;
    try {
      const callback = listener.callback;
      if (typeof callback === "function") {
        callback.call(s.currentTarget, event);
      } else {
        const handleEvent = callback.handleEvent;
        if (typeof handleEvent !== "function") throw new TypeError("'handleEvent' of an event listener is not a function");
        handleEvent.call(callback, event);
      }
    } catch (error) {
      reportException(error);
    }
    s.inPassiveListener = false;
    if (s.stopImmediatePropagation) return;
  }
}

// ---- The global scope as an event target, and reportError ---------------------------------------

const globalTarget = new EventTarget();

function reportException(error) {
  const event = new ErrorEvent("error", {
    cancelable: true,
    message: error instanceof Error || (error !== null && typeof error === "object" && "message" in error) ? `${error.message}` : `${error}`,
    error,
  });
  const s = eventState(event);
  s.isTrusted = true;
  if (dispatch(globalTarget, event, s)) native.reportError(error);
}

function reportError(e) {
  requireArguments(arguments.length, 1, "Failed to execute 'reportError'");
  reportException(e);
}

// ---- AbortController and AbortSignal ------------------------------------------------------------

let abortState; // (signal) => its internal state
let makeSignal; // () => a new AbortSignal
const illegal = Symbol("AbortSignal");

class AbortSignal extends EventTarget {
  #state;

  constructor(key = undefined) {
    if (key !== illegal) throw new TypeError("Illegal constructor");
    super();
    this.#state = { aborted: false, reason: undefined, algorithms: [], handler: null, handlerListener: null, sources: null, dependents: null, dependent: false };
  }

  static {
    abortState = (signal) => (signal !== null && typeof signal === "object" && #state in signal ? signal.#state : undefined);
    makeSignal = () => new AbortSignal(illegal);
  }

  static abort(reason = undefined) {
    const signal = makeSignal();
    const s = abortState(signal);
    s.aborted = true;
    s.reason = reason === undefined ? domException("This operation was aborted", "AbortError") : reason;
    return signal;
  }

  static timeout(milliseconds) {
    requireArguments(arguments.length, 1, "Failed to execute 'timeout' on 'AbortSignal'");
    const ms = enforceRange(milliseconds, "Failed to execute 'timeout' on 'AbortSignal'");
    const signal = makeSignal();
    const timer = setTimeout(() => {
      signalAbort(signal, domException("The operation timed out.", "TimeoutError"));
    }, ms);
    // A timeout alone does not keep the app running, as in node and Deno.
    if (timer !== null && typeof timer === "object" && typeof timer.unref === "function") timer.unref();
    return signal;
  }

  static any(signals) {
    requireArguments(arguments.length, 1, "Failed to execute 'any' on 'AbortSignal'");
    if (signals === null || typeof signals !== "object" || typeof signals[Symbol.iterator] !== "function") {
      throw new TypeError("Failed to execute 'any' on 'AbortSignal': The provided value cannot be converted to a sequence.");
    }
    const list = [...signals];
    for (const signal of list) {
      if (abortState(signal) === undefined) {
        throw new TypeError("Failed to execute 'any' on 'AbortSignal': Failed to convert value to 'AbortSignal'.");
      }
    }
    const result = makeSignal();
    const r = abortState(result);
    for (const signal of list) {
      const s = abortState(signal);
      if (s.aborted) {
        r.aborted = true;
        r.reason = s.reason;
        return result;
      }
    }
    r.dependent = true;
    r.sources = new Set();
    for (const signal of list) {
      const s = abortState(signal);
      const sources = s.dependent ? [...s.sources] : [signal];
      for (const source of sources) {
        const ss = abortState(source);
        r.sources.add(source);
        (ss.dependents ??= new Set()).add(result);
      }
    }
    return result;
  }

  get aborted() { return signalState(this, "aborted").aborted; }
  get reason() { return signalState(this, "reason").reason; }

  throwIfAborted() {
    const s = signalState(this, "throwIfAborted");
    if (s.aborted) throw s.reason;
  }

  get onabort() { return signalState(this, "onabort").handler; }
  set onabort(value) {
    const s = signalState(this, "onabort");
    s.handler = typeof value === "function" || (value !== null && typeof value === "object") ? value : null;
    if (s.handler !== null && s.handlerListener === null) {
      // An event handler is one listener, added when first set, that calls whatever it holds.
      s.handlerListener = function (event) {
        const handler = s.handler;
        if (typeof handler === "function") return handler.call(this, event);
      };
      this.addEventListener("abort", s.handlerListener);
    }
  }
}
enumerable(AbortSignal.prototype, ["aborted", "reason", "throwIfAborted", "onabort"]);
for (const name of ["abort", "timeout", "any"]) Object.defineProperty(AbortSignal, name, { enumerable: true });
toStringTag(AbortSignal.prototype, "AbortSignal");

function signalState(signal, member) {
  const s = abortState(signal);
  if (s === undefined) throw new TypeError(`AbortSignal.prototype.${member}: 'this' is not an AbortSignal`);
  return s;
}

function isAbortSignal(value) {
  return abortState(value) !== undefined;
}

function enforceRange(value, what) {
  const number = Number(value);
  if (!Number.isFinite(number)) throw new TypeError(`${what}: Value is not a finite number.`);
  const integer = Math.trunc(number);
  if (integer < 0 || integer > Number.MAX_SAFE_INTEGER) throw new TypeError(`${what}: Value is outside the 'unsigned long long' value range.`);
  return integer;
}

function addAbortAlgorithm(signal, algorithm) {
  const s = abortState(signal);
  if (!s.aborted) s.algorithms.push(algorithm);
}

// The DOM Standard's "remove an algorithm" (a pipe that has finished stops following its signal).
function removeAbortAlgorithm(signal, algorithm) {
  const s = abortState(signal);
  const index = s.algorithms.indexOf(algorithm);
  if (index !== -1) s.algorithms.splice(index, 1);
}

// The DOM Standard's "signal abort": this signal and the dependents it aborts get their reason
// first, then each runs its abort algorithms and fires "abort", in that order.
function signalAbort(signal, reason) {
  const s = abortState(signal);
  if (s.aborted) return;
  s.aborted = true;
  s.reason = reason === undefined ? domException("This operation was aborted", "AbortError") : reason;
  const toAbort = [];
  for (const dependent of s.dependents ?? []) {
    const d = abortState(dependent);
    if (d.aborted) continue;
    d.aborted = true;
    d.reason = s.reason;
    toAbort.push(dependent);
  }
  runAbortSteps(signal);
  for (const dependent of toAbort) runAbortSteps(dependent);
}

function runAbortSteps(signal) {
  const s = abortState(signal);
  const algorithms = s.algorithms;
  s.algorithms = [];
  for (const algorithm of algorithms) algorithm();
  const event = new Event("abort");
  const e = eventState(event);
  e.isTrusted = true;
  dispatch(signal, event, e);
}

let isAbortController;

class AbortController {
  #signal;

  constructor() {
    this.#signal = makeSignal();
  }

  static {
    isAbortController = (value) => value !== null && typeof value === "object" && #signal in value;
  }

  static #of(controller, member) {
    if (controller === null || typeof controller !== "object" || !(#signal in controller)) {
      throw new TypeError(`AbortController.prototype.${member}: 'this' is not an AbortController`);
    }
    return controller.#signal;
  }

  get signal() { return AbortController.#of(this, "signal"); }

  abort(reason = undefined) {
    signalAbort(AbortController.#of(this, "abort"), reason);
  }
}
enumerable(AbortController.prototype, ["signal", "abort"]);
toStringTag(AbortController.prototype, "AbortController");

// Event handler IDL attributes (HTML, "event handlers"): `on<type>` accessors on `prototype`, one
// per type. The first handler set adds one listener, which calls whatever the attribute holds
// when the event comes; a non-callable value is null.
const eventHandlerSlots = new WeakMap(); // target -> Map(type -> { handler })
const addListener = EventTarget.prototype.addEventListener;

function defineEventHandlers(prototype, types) {
  for (const type of types) {
    Object.defineProperty(prototype, `on${type}`, {
      configurable: true,
      enumerable: true,
      get() { return eventHandlerSlots.get(this)?.get(type)?.handler ?? null; },
      set(value) {
        const handler = typeof value === "function" || (value !== null && typeof value === "object") ? value : null;
        let slots = eventHandlerSlots.get(this);
        if (slots === undefined) eventHandlerSlots.set(this, (slots = new Map()));
        const slot = slots.get(type);
        if (slot !== undefined) {
          slot.handler = handler;
        } else if (handler !== null) {
          const added = { handler };
          slots.set(type, added);
          addListener.call(this, type, function (event) {
            const current = added.handler;
            if (typeof current === "function") return current.call(this, event);
          });
        }
      },
    });
  }
}

define("Event", Event);
define("CustomEvent", CustomEvent);
define("ErrorEvent", ErrorEvent);
define("EventTarget", EventTarget);
define("AbortController", AbortController);
define("AbortSignal", AbortSignal);
define("reportError", reportError);
for (const name of ["addEventListener", "removeEventListener", "dispatchEvent"]) {
  const method = EventTarget.prototype[name];
  const onGlobal = { [name](...args) { return method.apply(globalTarget, args); } }[name];
  Object.defineProperty(onGlobal, "length", { value: method.length });
  define(name, onGlobal);
}
// Events, targets, signals and controllers are platform objects that cannot be cloned.
internals.platformObjects.register((value) => eventState(value) !== undefined || listenersOf(value) !== undefined, null);
internals.platformObjects.register(isAbortController, null);
internals.provide("signalAbort", signalAbort);
internals.provide("addAbortAlgorithm", addAbortAlgorithm);
internals.provide("removeAbortAlgorithm", removeAbortAlgorithm);
internals.provide("isAbortSignal", isAbortSignal);
internals.provide("defineEventHandlers", defineEventHandlers);
// `new Interface(type, init)` with timeStamp `time`: for the events the host fires for messages
// that arrived together (a WebSocket's read), made with one reading of the clock, which is a
// native call, instead of one each. The constructor runs no code of the program's (init is the
// host's own object), so no other event can take the time.
internals.provide("withTimeStamp", (time, Interface, type, init) => {
  presetTimeStamp = time;
  try {
    return new Interface(type, init);
  } finally {
    presetTimeStamp = undefined;
  }
});
