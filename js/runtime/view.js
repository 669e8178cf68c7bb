"use strict";
// The JS client of the `view` target: mounts a JSON view and dispatches its events to
// JS handlers by name. Native never calls JS: the client asks for each event with view.nextEvent
// (a long-poll) and looks the handler up at dispatch time, so a patched module's new function is
// the one that runs, and a view can name handlers that a later patch adds.

const { call, answerNow } = native.client;

/** Finds `name` ("tasks.add") in `handlers` ({tasks: require("./tasks")}), at call time. */
function resolveHandler(handlers, name) {
  let target = handlers;
  for (const part of String(name).split(".")) {
    if (target === null || target === undefined) return undefined;
    target = target[part];
  }
  return typeof target === "function" ? target : undefined;
}

// Under `hybrid test` there is no one at the keyboard: draw nowhere unless asked.
function defaultOutput() {
  return typeof globalThis.test === "function" && typeof globalThis.expect === "function" ? "none" : "auto";
}

// Under `hybrid test`, the mounted view's entry in the harness's ledger of what a test left
// running (test-harness.js, OpenWork), from its mount to its unmount.
const openWork = () => globalThis.__hybridTest?.openWork;
let mountedTicket;

function mount(tree, data = {}, options = {}) {
  const params = { tree, data, output: options.output || defaultOutput() };
  if (options.width !== undefined) params.width = options.width;
  if (options.height !== undefined) params.height = options.height;
  if (options.accessible !== undefined) params.accessible = options.accessible;
  const site = new Error();
  return call("view", "mount", params).then((mounted) => {
    const ledger = openWork();
    if (ledger !== undefined && mountedTicket === undefined) {
      mountedTicket = ledger.open("open view", "view.mount", site, () => { unmount().catch(() => {}); });
      ledger.refreshers.add(stillMounted);
    }
    return mounted;
  });
}

// Before the harness reads its ledger: a view unmounted by a raw Hybrid.call("view", "unmount")
// is not open any more.
function stillMounted() {
  if (mountedTicket === undefined) return;
  try {
    answerNow("view", "frame", {});
  } catch {
    openWork()?.close(mountedTicket);
    mountedTicket = undefined;
  }
}

const update = (data) => call("view", "update", { data });
const patch = (operations) => call("view", "update", { patch: operations });
const frame = () => call("view", "frame", {});
const unmount = () => {
  openWork()?.close(mountedTicket);
  mountedTicket = undefined;
  return call("view", "unmount", {});
};
const nextEvent = (options) => call("view", "nextEvent", {}, options);
const press = (id) => call("view", "simulate", { type: "press", id });
const key = (name) => call("view", "simulate", { type: "key", key: name });
// The wheel over the scroll container `target` (its id) or at a cell ({x, y}), `delta` rows down.
const wheelParams = (target, delta) =>
  typeof target === "string" ? { type: "wheel", id: target, delta } : { type: "wheel", x: target?.x, y: target?.y, delta };
const wheel = (target, delta) => call("view", "simulate", wheelParams(target, delta));

const sameEvent = (a, b) => a.type === b.type && a.id === b.id && a.handler === b.handler && a.key === b.key;
const eventName = (event) => (event.type === "press" ? `press on "${event.id}"` : event.type);

/**
 * Mounts `options.tree` with `options.data` (when given) and runs its events: each press calls
 * the handler its `on.press` names, as `handler(event, view)`, where `view` is this controller.
 * Resolves `done` when the user quits (q), the view is unmounted, or `stop()` is called.
 * `view.press(id)` and `view.key(name)` resolve once the event they caused has been handled (its
 * handler settled, so what it drew is on screen), and reject with what the handler threw.
 *
 *   const view = await Hybrid.view.run({ tasks }, { tree, data });
 *   await view.done;
 */
async function run(handlers, options = {}) {
  const mounted = options.tree !== undefined ? await mount(options.tree, options.data, options) : undefined;
  const controller = new AbortController();
  let stopped = false;
  let finish;
  const done = new Promise((resolve) => { finish = resolve; });
  // Presses and keys this controller simulated, each waiting for the loop below to handle its
  // event. view.simulate answers inline, so a waiter is in the list before the event can reach
  // the loop (nextEvent answers in a later task).
  const waiting = [];
  const notHandled = (event) => new Error(`view: stopped before the ${eventName(event)} was handled`);
  const handled = (answer) => {
    if (answer.event === null) return Promise.resolve(answer);
    if (stopped) return Promise.reject(notHandled(answer.event));
    return new Promise((resolve, reject) => { waiting.push({ event: answer.event, answer, resolve, reject }); });
  };
  const claim = (event) => {
    const index = waiting.findIndex((w) => sameEvent(w.event, event));
    return index === -1 ? undefined : waiting.splice(index, 1)[0];
  };
  const simulate = (params) => {
    try {
      return handled(answerNow("view", "simulate", params));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const view = {
    update, patch, frame,
    /** Presses the node `id` and resolves, with `{event}`, once its handler has settled. */
    press: (id) => simulate({ type: "press", id }),
    /** Types a key (tab, shift-tab, enter, space, q); resolves once the event it caused is handled. */
    key: (name) => simulate({ type: "key", key: name }),
    /** Turns the mouse wheel over a scroll container (its id, or {x, y}) by `delta` rows, down when positive. */
    wheel: (target, delta) => simulate(wheelParams(target, delta)),
    done,
    /** What view.mount answered: {width, height, nodes, output, text}. */
    mounted,
    async stop() {
      if (stopped) return;
      stopped = true;
      controller.abort();
      await unmount();
      finish({ reason: "stopped" });
    },
  };
  const report = options.onError || ((error) => console.error(error));
  (async () => {
    try {
      while (!stopped) {
        let event;
        try {
          event = await nextEvent({ signal: controller.signal });
        } catch (error) {
          if (stopped) return;
          stopped = true;
          report(error);
          finish({ reason: "error", error });
          return;
        }
        // The press or key of this controller that caused the event, if one did: it learns how
        // the handler ended; an event from the keyboard reports a failure through onError.
        const waiter = claim(event);
        if (event.type === "quit") {
          stopped = true;
          finish({ reason: "quit" });
          waiter?.resolve(waiter.answer);
          return;
        }
        const handler = resolveHandler(handlers, event.handler);
        try {
          if (handler === undefined) throw new Error(`view: no handler "${event.handler}" for ${event.type} on "${event.id}"`);
          await handler(event, view);
          waiter?.resolve(waiter.answer);
        } catch (error) {
          if (waiter) waiter.reject(error);
          else report(error);
        }
      }
    } finally {
      for (const waiter of waiting.splice(0)) waiter.reject(notHandled(waiter.event));
    }
  })();
  return view;
}

native.hybrid.view = Object.freeze({ run, mount, update, patch, frame, unmount, nextEvent, press, key, wheel });
