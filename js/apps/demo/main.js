// The demo app: what a business script looks like on HybridHost. It asks the device service
// who it runs on, round-trips data through the bridge, and shows how errors arrive.
const report = require("./report");

async function main() {
  const [info, screen, battery, { id }] = await Promise.all([
    Hybrid.call("device", "info"),
    Hybrid.call("device", "screen"),
    Hybrid.call("device", "battery"),
    Hybrid.call("device", "id"),
  ]);
  report.section("Device");
  report.line("host", `${info.hostVersion} on ${info.engine}`);
  report.line("system", `${info.osName} ${info.osVersion}, kernel ${info.kernel} (${info.arch})`);
  report.line("cpu / memory", `${info.cpuCount} cores, ${report.bytes(info.memoryAvailable)} free of ${report.bytes(info.memoryTotal)}`);
  report.line("locale", `${info.locale} (${info.languageTag}), ${info.timezone}`);
  report.line("screen", `${screen.columns}x${screen.rows}, ${screen.colors} colors`);
  report.line("battery", battery.present ? `${Math.round(battery.level * 100)}%${battery.charging ? ", charging" : ""}` : "none");
  report.line("device id", id);

  report.section("Errors are data");
  for (const attempt of [
    () => Hybrid.call("network", "request", {}),
    () => Hybrid.call("device", "reboot", {}),
    () => Hybrid.call("device", "info", { verbose: true }),
  ]) {
    try {
      await attempt();
    } catch (error) {
      report.line(error.code, error.path === undefined ? error.message : `${error.message} (path ${error.path})`);
    }
  }

  report.section("Bridge");
  const bytes = new Uint8Array([0xca, 0xfe, 0xba, 0xbe]);
  const echoed = await Hybrid.call("bridge", "echo", { greeting: "hello, 世界 👋", bytes });
  report.line("echo", `${echoed.greeting} + ${echoed.bytes.length} bytes as ${echoed.bytes.constructor.name}`);

  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 10000 }, (_, i) => Hybrid.call("bridge", "echo", { i })));
  const allOwn = answers.every((answer, i) => answer.i === i);
  report.line("10,000 calls", `${allOwn ? "all answered with their own results" : "MISMATCH"} in ${Date.now() - started} ms`);

  const targets = await Hybrid.targets();
  report.line("targets", Object.entries(targets).map(([name, t]) => `${name}${t.granted ? "" : " (not granted)"}`).join(", "));

  report.section("Storage");
  const db = { database: "demo" };
  await Hybrid.call("storage", "open", { ...db, schema: { version: 1, tables: { tasks: {
    columns: { id: "INTEGER", title: "TEXT NOT NULL", done: "BOOLEAN NOT NULL DEFAULT FALSE", due: "INTEGER" },
    primaryKey: "id" } } } });
  await Hybrid.call("storage", "delete", { ...db, table: "tasks", where: {} });
  const watch = Hybrid.call("storage", "watch", { ...db, timeoutMs: 1000 });
  await Hybrid.call("storage", "insert", { ...db, table: "tasks", records: [
    { title: "buy milk", due: 2 }, { title: "call mum", due: 1 }, { title: "file taxes", due: 3, done: true }] });
  const { records } = await Hybrid.call("storage", "find", { ...db, table: "tasks", where: { done: false }, orderBy: ["due"], columns: ["title"] });
  report.line("open tasks", records.map((r) => r.title).join(", "));
  report.line("watch saw", `${(await watch).events.length} committed changes`);
  await Hybrid.call("kv", "set", { bucket: "prefs", key: "theme", value: { dark: true }, metadata: { from: "demo" } });
  report.line("kv", JSON.stringify((await Hybrid.call("kv", "get", { bucket: "prefs", key: "theme" })).value));
  try {
    await Hybrid.call("storage", "find", { ...db, table: "tasks", where: { "title; DROP TABLE tasks": 1 } });
  } catch (error) {
    report.line("injection", `refused: ${error.code} at ${error.path}`);
  }

  await syncSection(Hybrid.args[0], Hybrid.args[1], Hybrid.args[2]);

  report.section("View");
  // The stored tasks as a JSON-described view (views/tasks.json), rendered as text. Its buttons
  // name JS handlers ("tasks.toggle"); a press (simulated here, Enter in a terminal) runs them.
  const tasksView = async () => {
    const { records: all } = await Hybrid.call("storage", "find", { ...db, table: "tasks", orderBy: ["due"] });
    const tasks = all.map((t) => ({ id: t.id, title: t.title, mark: t.done ? "x" : " " }));
    return { title: "Tasks", tasks, total: all.length, doneCount: all.filter((t) => t.done).length };
  };
  let toggled;
  const pressed = new Promise((resolve) => { toggled = resolve; });
  const handlers = { tasks: {
    async toggle(event, view) {
      const id = Number(event.key);
      const [task] = (await Hybrid.call("storage", "find", { ...db, table: "tasks", where: { id } })).records;
      await Hybrid.call("storage", "update", { ...db, table: "tasks", where: { id }, set: { done: !task.done } });
      await view.update(await tasksView());
      toggled(task.title);
    },
    add() {},
    clearDone() {},
  } };
  const data = await tasksView();
  const view = await Hybrid.view.run(handlers, { tree: require("./views/tasks.json"), data, output: "none" });
  console.log(view.mounted.text.replace(/^/gm, "  "));
  await view.press(`toggle-${data.tasks[0].id}`);
  report.line("pressed", `${await pressed}: toggled through storage, view updated`);
  console.log((await view.frame()).text.replace(/^/gm, "  "));
  await view.stop();

  await hotPatchSection(Hybrid.args[3]);
}

// `make demo` runs a patch server beside the app (hybrid run --patch-server URL) and publishes to
// half of the demo's devices a signed patch that fixes report.line's padding (the rows above with
// long labels are out of line); this device is in that half. app.json's patches say autoCheck
// false, so the patch arrives here, when the app asks, and not at start.
async function hotPatchSection(deviceToken) {
  report.section("Hot patch");
  if (!deviceToken) return report.line("patch", "no patch server given (make demo starts one)");
  const { outcome, patchVersion } = await checkForPatch(deviceToken);
  report.line("check", `${outcome}: patch ${patchVersion} swapped into the running app`);
  report.line("E_UNKNOWN_ACTION", "the same report as above, now in line");
  const confirmed = await Hybrid.call("patch", "ready");
  report.line("confirmed", `patch ${confirmed.patchVersion} is ${confirmed.state}; it stays across restarts`);
  await reportsSent(deviceToken);
}

// Asks the patch server for a patch, with this device's token for the reports.
async function checkForPatch(deviceToken) {
  await Hybrid.call("patch", "configure", { token: deviceToken });
  return Hybrid.call("patch", "check", {});
}

// Waits until the patch server has taken this device's reports (downloaded, applied, confirmed or
// rolled back): they are kept in the data dir across runs anyway, but the demo reads the funnel
// right after.
async function reportsSent(deviceToken) {
  for (let waited = 0; waited < 10000; waited += 50) {
    if ((await Hybrid.call("patch", "configure", { token: deviceToken })).pendingReports === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  report.line("reports", "not all sent yet; they go with the next run");
}

// `hybrid run js/apps/demo --data-dir DIR --patch-server URL -- --device NAME TOKEN`: one device of
// the rollout, as scripts/demo runs them: a check, and what came of it.
async function deviceCheck(name, deviceToken) {
  try {
    const { outcome, patchVersion } = await checkForPatch(deviceToken);
    if (outcome === "applied") await Hybrid.call("patch", "ready");
    const running = patchVersion === null ? "the shipped code" : `patch ${patchVersion}`;
    report.line(name, outcome === "applied" ? `applied patch ${patchVersion} and confirmed it` : `nothing offered; runs ${running}`);
  } catch (error) {
    // The loader rolled the patch back at once; the reason goes to the server with the report.
    const { patchVersion } = await Hybrid.call("patch", "current");
    report.line(name, `${error.message.split("\n")[0].replace(/ at \S+$/, "")}: rolled back to patch ${patchVersion}`);
  }
  await reportsSent(deviceToken);
}

// Alice's two devices, a phone and a laptop, each a database of this app connected to the reference
// sync server as a device of its own: they sync, edit the same task while apart, and the laptop
// settles the conflict (the table asks rather than letting the later write win). Then Bob, who
// shares the team scope with her: each sees the team's tasks and only their own private ones.
async function syncSection(server, aliceToken, bobToken) {
  report.section("Sync");
  if (!server) return report.line("sync", "no server given (make demo starts one: hybrid run js/apps/demo -- URL ALICE_TOKEN BOB_TOKEN)");
  const health = await Hybrid.call("network", "request", { url: `${server}/v1/health` });
  report.line("server", `${server}: ${health.status} ${JSON.stringify(health.body)} in ${health.timing.totalMs.toFixed(1)} ms (libcurl)`);
  const schema = { version: 1, tables: { tasks: {
    columns: { id: "TEXT NOT NULL", title: "TEXT NOT NULL", done: "BOOLEAN NOT NULL DEFAULT 0", owner: "TEXT NOT NULL" },
    primaryKey: "id", sync: { mode: "twoWay", conflict: "ask", scope: "owner" } } } };
  const phone = { database: "phone" }, laptop = { database: "laptop" }, bobs = { database: "bobs-phone" };
  for (const [device, token] of [[phone, aliceToken], [laptop, aliceToken], [bobs, bobToken]]) {
    await Hybrid.call("storage", "open", { ...device, schema });
    await Hybrid.call("sync", "connect", { ...device, server, token, deviceName: device.database });
  }
  const run = async (device) => {
    const r = await Hybrid.call("sync", "run", device);
    return `pushed ${r.pushed}, pulled ${r.pulled}, applied ${r.applied}, conflicts ${r.conflicts}` +
      (r.evicted ? `, dropped ${r.evicted} outside its scopes` : "");
  };
  const titles = async (device) => (await Hybrid.call("storage", "find", { ...device, table: "tasks", orderBy: "id" }))
    .records.map((t) => `${t.title}${t.done ? " ✓" : ""}`).join(", ");
  await Hybrid.call("storage", "insert", { ...phone, table: "tasks", records: [{ id: "t1", title: "buy milk", owner: "team:t1" }, { id: "t2", title: "call mum", owner: "user:alice" }] });
  report.line("phone run", await run(phone));
  report.line("laptop run", await run(laptop));
  report.line("laptop sees", await titles(laptop));
  // Apart, both edit t1; the laptop also marks every task done in one batch operation.
  await Hybrid.call("storage", "update", { ...phone, table: "tasks", where: { id: "t1" }, set: { title: "buy oat milk" } });
  report.line("phone run", await run(phone));
  await Hybrid.call("storage", "update", { ...laptop, table: "tasks", where: { id: "t1" }, set: { title: "buy milk and eggs" } });
  report.line("laptop run", await run(laptop));
  const [conflict] = (await Hybrid.call("sync", "conflicts", laptop)).conflicts;
  report.line("conflict", `${conflict.table}/${conflict.dataId}: here "${conflict.local.title}", server "${conflict.remote.title}"`);
  await Hybrid.call("sync", "resolve", { ...laptop, conflictId: conflict.conflictId, keep: "local" });
  await Hybrid.call("storage", "update", { ...laptop, table: "tasks", where: { owner: "team:t1", done: false }, set: { done: true } });
  report.line("resolved", `kept the laptop's; laptop run: ${await run(laptop)}`);
  report.line("phone run", await run(phone));
  report.line("phone sees", await titles(phone));
  report.line("laptop sees", await titles(laptop));
  // Bob adds a team task and a private one; the server refuses him a write into Alice's scope.
  await Hybrid.call("storage", "insert", { ...bobs, table: "tasks", records: [
    { id: "t3", title: "book the team room", owner: "team:t1" }, { id: "t4", title: "dentist", owner: "user:bob" }] });
  report.line("bob run", await run(bobs));
  await Hybrid.call("storage", "insert", { ...bobs, table: "tasks", records: [{ id: "t5", title: "read alice's list", owner: "user:alice" }] });
  await run(bobs);
  const [refused] = (await Hybrid.call("sync", "status", bobs)).failed;
  report.line("bob refused", `${refused.table}/${refused.dataId}: ${refused.error.split(": ")[0]}, nothing of it reaches Alice`);
  report.line("alice run", await run(phone));
  report.line("alice sees", await titles(phone));
  // Bob keeps his refused row, with its failed op in sync.status, until he deletes or fixes it.
  report.line("bob sees", await titles(bobs));
}

if (Hybrid.args[0] === "--device") deviceCheck(Hybrid.args[1], Hybrid.args[2]);
else main();
