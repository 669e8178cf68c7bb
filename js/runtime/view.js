"use strict";
// The JS client of the `view` target: mounts a JSON view and dispatches its events to
// JS handlers by name. Native never calls JS: the client asks for each event with view.nextEvent
// (a long-poll) and looks the handler up at dispatch time, so a patched module's new function is
// the one that runs, and a view can name handlers that a later patch adds.

const { call } = native.client;

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

function mount(tree, data = {}, options = {}) {
  const params = { tree, data, output: options.output || defaultOutput() };
  if (options.width !== undefined) params.width = options.width;
  if (options.height !== undefined) params.height = options.height;
  return call("view", "mount", params);
}

const update = (data) => call("view", "update", { data });
const patch = (operations) => call("view", "update", { patch: operations });
const frame = () => call("view", "frame", {});
const unmount = () => call("view", "unmount", {});
const nextEvent = (options) => call("view", "nextEvent", {}, options);
const press = (id) => call("view", "simulate", { type: "press", id });
const key = (name) => call("view", "simulate", { type: "key", key: name });

/**
 * Mounts `options.tree` with `options.data` (when given) and runs its events: each press calls
 * the handler its `on.press` names, as `handler(event, view)`, where `view` is this controller.
 * Resolves `done` when the user quits (q), the view is unmounted, or `stop()` is called.
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
  const view = {
    update, patch, frame, press, key,
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
      if (event.type === "quit") {
        stopped = true;
        finish({ reason: "quit" });
        return;
      }
      const handler = resolveHandler(handlers, event.handler);
      if (handler === undefined) {
        report(new Error(`view: no handler "${event.handler}" for ${event.type} on "${event.id}"`));
        continue;
      }
      try {
        await handler(event, view);
      } catch (error) {
        report(error);
      }
    }
  })();
  return view;
}

native.hybrid.view = Object.freeze({ run, mount, update, patch, frame, unmount, nextEvent, press, key });
