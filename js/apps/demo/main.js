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

  report.section("Errors are data");
  for (const attempt of [
    () => Hybrid.call("storage", "find", {}),
    () => Hybrid.call("device", "reboot", {}),
    () => Hybrid.call("device", "info", { verbose: true }),
  ]) {
    try {
      await attempt();
    } catch (error) {
      report.line(error.code, error.path === undefined ? error.message : `${error.message} (path ${error.path})`);
    }
  }
}

main();
