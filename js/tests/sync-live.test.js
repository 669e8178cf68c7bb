// @grants storage,sync,network:127.0.0.1
// sync.live through the real bridge: two devices (two databases of this app, each registered
// as a device of its own) kept in sync by Hybrid.subscribe("sync", "live"), each against its own
// server. Tests/SyncTests runs this file as
//   hybrid test js/tests/sync-live.test.js --arg http://127.0.0.1:PORT_A --arg http://127.0.0.1:PORT_B --arg WRITES --arg LABEL
// with the two servers one SQLite server twice, or two instances over one PostgreSQL database,
// and prints the write-to-other-device latency it measured, under LABEL.
// Without server URLs every test here is skipped.

const [serverA, serverB] = Hybrid.args;
const writes = Number(Hybrid.args[2] || 20);
const label = Hybrid.args[3] || "";
const live = (name, fn) => (serverA && serverB ? test : test.skip)(name, fn, 300000);

const schema = {
  version: 1,
  tables: { notes: { columns: { id: "TEXT NOT NULL", body: "TEXT" }, primaryKey: "id", sync: { mode: "twoWay" } } },
};

async function device(database, server) {
  await Hybrid.call("storage", "open", { database, schema });
  await Hybrid.call("sync", "connect", { database, server, deviceName: database });
  return {
    insert: (records) => Hybrid.call("storage", "insert", { database, table: "notes", records }),
    find: (id) => Hybrid.call("storage", "find", { database, table: "notes", where: { id } }),
  };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

live("a write on device A reaches device B through sync.live, and back", async () => {
  const suffix = String(Date.now());
  const a = await device("liveA" + suffix, serverA);
  const b = await device("liveB" + suffix, serverB);
  // Each device's rows as its live events bring them: a waiter per row id, per device.
  const waiting = { A: new Map(), B: new Map() };
  const events = [];
  const onEvent = (name, find) => async (event) => {
    events.push({ device: name, ...event });
    for (const [id, resolve] of [...waiting[name]]) {
      if ((await find(id)).records.length > 0) { waiting[name].delete(id); resolve(performance.now()); }
    }
  };
  // A held pull that missed its wake still answers after waitMs (20 s): a row later than 45 s
  // is lost, and the failure says what the live loops reported last.
  const arrival = (name, id) => new Promise((resolve, reject) => {
    const late = setTimeout(() => {
      waiting[name].delete(id);
      reject(new Error(`${id} never reached device ${name}; the last live events: ${JSON.stringify(events.slice(-6))}`));
    }, 45000);
    waiting[name].set(id, (at) => { clearTimeout(late); resolve(at); });
  });
  const options = { onError: (error) => events.push({ error: String(error && error.code) }) };
  const liveA = Hybrid.subscribe("sync", "live", { database: "liveA" + suffix, waitMs: 20000 }, onEvent("A", a.find), options);
  const liveB = Hybrid.subscribe("sync", "live", { database: "liveB" + suffix, waitMs: 20000 }, onEvent("B", b.find), options);
  try {
    const latencies = [];
    for (let i = 0; i < writes; i++) {
      const id = "n" + i;
      const arrived = arrival("B", id);
      const written = performance.now();
      await a.insert([{ id, body: "note " + i }]);
      latencies.push((await arrived) - written);
    }
    // And the other way: B's write reaches A.
    const back = arrival("A", "from-b");
    await b.insert([{ id: "from-b", body: "back" }]);
    await back;
    expect(events.filter((e) => e.online !== true)).toEqual([]);
    expect((await b.find("n" + (writes - 1))).records).toEqual([{ id: "n" + (writes - 1), body: "note " + (writes - 1) }]);
    const sorted = [...latencies].sort((x, y) => x - y);
    console.log(`${label}: sync.live write-to-other-device latency over ${writes} writes: p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`);
  } finally {
    liveA.stop();
    liveB.stop();
  }
});
