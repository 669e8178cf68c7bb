// The soak's workloads, one loop per kind of call, each as an app would write it. Every loop
// runs until `running()` says stop, finishes the round it is in, and keeps what it stores bounded
// (a table of a few hundred rows, 64 kv keys, a view of 12 rows), so that memory which keeps
// growing is the host's, not the data's. A wrong answer throws: the soak is also a check that
// each call got its own answer.
const label = require("./label");

function check(condition, message) {
  if (!condition) throw new Error(message);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Inline actions (bridge.echo, view.update) answer at once, so a loop of them runs on promise
// reactions alone and never returns to the event loop: timers, completions from other threads
// and the other loops would wait until it ends, as a loop of resolved promises starves node's.
// Such a loop yields once a round.
const nextTurn = () => sleep(0);

/** bridge.echo in batches of 16, each answer checked against its own call. */
async function bridge({ ledger, running }) {
  let n = 0;
  while (running()) {
    const batch = Array.from({ length: 16 }, () => n++);
    const answers = await Promise.all(batch.map((i) => ledger.track("bridge", "echo", () =>
      Hybrid.call("bridge", "echo", { i, text: `call ${i}`, bytes: new Uint8Array([i & 255, 1, 2, 3]) }))));
    answers.forEach((answer, k) => check(answer.i === batch[k] && answer.bytes[0] === (batch[k] & 255),
      `bridge.echo answered ${JSON.stringify(answer)} to call ${batch[k]}`));
    await nextTurn();
  }
}

/** storage: inserts, a query, a count, an update, and deletes that keep the table near 250 rows;
 * a watch subscription counts the committed changes. */
async function storage({ ledger, running, counters }) {
  const db = { database: "soak" };
  const call = (action, params) => ledger.track("storage", action, () => Hybrid.call("storage", action, { ...db, ...params }));
  await call("open", { schema: { version: 1, tables: { events: {
    columns: { id: "INTEGER", kind: "TEXT NOT NULL", body: "TEXT", round: "INTEGER NOT NULL" },
    primaryKey: "id", indexes: [["kind", "round"]] } } } });
  const watch = Hybrid.subscribe("storage", "watch", { ...db, tables: ["events"] }, ({ events }) => {
    counters.watchedChanges += events.length;
  }, { onError: (error) => { counters.watchErrors += 1; console.error("soak: storage.watch:", error.message); } });
  const kinds = ["open", "click", "close"];
  let round = 0;
  try {
    while (running()) {
      round += 1;
      const kind = kinds[round % kinds.length];
      await call("insert", { table: "events", records: Array.from({ length: 8 }, (_, k) =>
        ({ kind: kinds[k % kinds.length], body: `event ${k} of round ${round}`, round })) });
      const { records } = await call("find", { table: "events", where: { kind, round: { gte: round - 5 } }, orderBy: ["-round", "id"], limit: 20 });
      check(records.length > 0 && records[0].round === round, `storage.find: expected round ${round} first, got ${JSON.stringify(records[0])}`);
      await call("count", { table: "events", where: { round } });
      await call("update", { table: "events", where: { round, kind: "open" }, set: { body: `updated in round ${round}` } });
      if (round % 10 === 0) await call("delete", { table: "events", where: { round: { lt: round - 30 } } });
    }
  } finally {
    watch.stop();
  }
}

/** kv: set, a get through Hybrid.kv (a JS cache hit or a miss), getMany and deletes over 64 keys. */
async function kv({ ledger, running }) {
  const bucket = "soak";
  let round = 0;
  while (running()) {
    round += 1;
    const key = `k${round % 64}`;
    await ledger.track("kv", "set", () => Hybrid.kv.set({ bucket, key, value: { round, text: `value of round ${round}` }, ttlSeconds: 3600 }));
    const entry = await ledger.track("kv", "get", () => Hybrid.kv.get({ bucket, key }));
    check(entry && entry.value.round === round, `kv.get ${key}: expected round ${round}, got ${JSON.stringify(entry)}`);
    const keys = [1, 2, 3, 4].map((k) => ({ bucket, key: `k${(round + k * 7) % 64}` }));
    await ledger.track("kv", "getMany", () => Hybrid.call("kv", "getMany", { items: keys }));
    if (round % 8 === 0) await ledger.track("kv", "delete", () => Hybrid.kv.delete({ bucket, key: `k${(round + 32) % 64}` }));
  }
}

/** network: GETs of a JSON list and POSTs echoed back, to the soak's local server. */
async function network({ ledger, running, server }) {
  let round = 0;
  while (running()) {
    round += 1;
    const n = 1 + (round % 20);
    const list = await ledger.track("network", "GET /items", () => Hybrid.call("network", "request", { url: `${server}/items?n=${n}` }));
    check(list.status === 200 && list.body.items.length === n, `GET /items?n=${n}: ${list.status} ${JSON.stringify(list.body)}`);
    const echoed = await ledger.track("network", "POST /echo", () => Hybrid.call("network", "request", { url: `${server}/echo`, json: { round } }));
    check(echoed.status === 200 && echoed.body.round === round, `POST /echo: ${echoed.status} ${JSON.stringify(echoed.body)}`);
  }
}

/** view: a dashboard mounted headless and re-rendered with new data each round (a keyed list that
 * gains a row and loses one), a JSON patch, a simulated press handled in JS, and a frame read back
 * that must show the label the running patch gives. */
async function view({ ledger, running, counters }) {
  const data = (round) => ({
    title: "Soak",
    version: label.label(),
    round,
    rows: Array.from({ length: 12 }, (_, k) => ({ id: round + k, text: `row ${round + k}: ${"*".repeat((round + k) % 30)}` })),
  });
  const handlers = { soak: { bump() { counters.pressesHandled += 1; } } };
  const tree = require("./views/dashboard.json");
  const dashboard = await ledger.track("view", "mount", () => Hybrid.view.run(handlers, { tree, data: data(0), output: "none", width: 60 }));
  let round = 0;
  try {
    while (running()) {
      round += 1;
      // The label this round's data carries: a patch may land while the update or a frame is
      // awaited, so the frame is checked against what was rendered, not what runs afterwards.
      const rendered = data(round);
      await ledger.track("view", "update", () => dashboard.update(rendered));
      if (round % 10 === 0) await ledger.track("view", "patch", () => dashboard.patch([{ op: "replace", path: "/title", value: `Soak ${round}` }]));
      if (round % 25 === 0) {
        await ledger.track("view", "press", () => dashboard.press("bump"));
        counters.pressesSent += 1;
      }
      if (round % 50 === 0) {
        const { text } = await ledger.track("view", "frame", () => dashboard.frame());
        const shown = rendered.version;
        check(text.includes(`round ${round}`) && text.includes(shown), `view.frame of round ${round} does not show "${shown}":\n${text}`);
      }
      await nextTurn();
    }
  } finally {
    await ledger.track("view", "stop", () => dashboard.stop());
  }
}

/** patch: watches for the patches the driver drops, checks that the amended label is the one
 * running, and confirms each (patch.ready), as an app that trusts its patches would. */
async function patch({ ledger, running, counters }) {
  let last = null;
  while (running()) {
    const current = await ledger.track("patch", "current", () => Hybrid.call("patch", "current"));
    if (current.patchVersion !== null && current.patchVersion !== last) {
      check(label.label() === `patch ${current.patchVersion}`,
        `patch ${current.patchVersion} is in effect but label() is "${label.label()}"`);
      const confirmed = await ledger.track("patch", "ready", () => Hybrid.call("patch", "ready"));
      check(confirmed.state === "confirmed", `patch.ready: ${JSON.stringify(confirmed)}`);
      last = current.patchVersion;
      counters.patchesSeen += 1;
      counters.lastPatch = last;
    }
    await sleep(200);
  }
}

module.exports = { bridge, storage, kv, network, view, patch };
