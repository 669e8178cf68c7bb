// The soak app: a mixed workload run for a given time, as `make soak` drives it (scripts/soak).
// Loops of bridge echoes, storage, kv, network requests to a local server, a headless view
// re-rendered with changing data, and a watch for the signed patches the driver drops in. Every
// call is counted sent and answered; one left unanswered longer than the call timeout fails the
// run at once. Progress goes to stdout every few seconds; the last line is the summary the
// driver reads, `soak-summary {JSON}`.
//
//   hybrid run js/apps/soak --data-dir DIR -- SECONDS SERVER_URL [LEAK_BYTES_PER_CALL] [CALL_TIMEOUT_MS]
//
// LEAK_BYTES_PER_CALL (default 0) keeps that many bytes alive per answered call: a deliberate
// leak, to show that the driver's RSS check catches one.
const { CallLedger } = require("./call-ledger");
const workloads = require("./workloads");

const KINDS = ["bridge", "storage", "kv", "network", "view", "patch"];
const PROGRESS_EVERY_MS = 5000;

async function main() {
  const [secondsArg, server, leakArg = "0", timeoutArg = "10000"] = Hybrid.args;
  const seconds = Number(secondsArg), leakBytes = Number(leakArg), callTimeoutMs = Number(timeoutArg);
  if (!(seconds > 0) || !server || !(leakBytes >= 0) || !(callTimeoutMs > 0)) {
    throw new Error("usage: hybrid run js/apps/soak -- SECONDS SERVER_URL [LEAK_BYTES_PER_CALL] [CALL_TIMEOUT_MS]");
  }
  const ledger = new CallLedger(KINDS);
  const leaked = [];
  if (leakBytes > 0) ledger.onAnswer = () => leaked.push(new Uint8Array(leakBytes).fill(leaked.length & 255));

  const started = Date.now();
  const deadline = started + seconds * 1000;
  let failure;
  const fail = (message) => { if (failure === undefined) failure = message; };
  const counters = { watchedChanges: 0, watchErrors: 0, pressesSent: 0, pressesHandled: 0, patchesSeen: 0, lastPatch: null };
  const context = { ledger, server, counters, running: () => failure === undefined && Date.now() < deadline };

  // A call unanswered past the timeout is a hang: the run stops there, and says which call.
  let lastProgress = started, answeredThen = 0;
  const ticker = setInterval(() => {
    const now = Date.now();
    const oldest = ledger.oldest(now);
    if (oldest && oldest.ageMs > callTimeoutMs) {
      fail(`${oldest.kind} ${oldest.what} unanswered after ${oldest.ageMs} ms (timeout ${callTimeoutMs} ms)`);
    }
    if (now - lastProgress >= PROGRESS_EVERY_MS) {
      const { answered } = ledger.totals();
      const rate = Math.round((answered - answeredThen) * 1000 / (now - lastProgress));
      const byKind = KINDS.map((kind) => `${kind} ${ledger.counts[kind].answered}`).join(", ");
      console.log(`soak: ${Math.round((now - started) / 1000)} s, ${answered} answered (${rate}/s), ${ledger.inFlight.size} in flight; ${byKind}; patch ${counters.lastPatch ?? "none"}`);
      lastProgress = now;
      answeredThen = answered;
    }
  }, 250);

  // Two network loops, so that a request is usually in flight while another is answered.
  const lanes = [workloads.bridge, workloads.storage, workloads.kv, workloads.network, workloads.network, workloads.view, workloads.patch];
  const outcomes = await Promise.allSettled(lanes.map((lane) => lane(context)));
  clearInterval(ticker);
  outcomes.forEach((outcome) => { if (outcome.status === "rejected") fail(`${outcome.reason.message}\n${outcome.reason.stack || ""}`); });
  if (counters.pressesHandled !== counters.pressesSent) fail(`view: ${counters.pressesSent} presses sent, ${counters.pressesHandled} handled`);
  if (counters.watchErrors > 0) fail(`storage.watch failed ${counters.watchErrors} times`);

  const elapsed = (Date.now() - started) / 1000;
  const totals = ledger.totals();
  const summary = {
    seconds: Math.round(elapsed * 10) / 10,
    calls: ledger.counts,
    totals,
    callsPerSecond: Math.round(totals.answered / elapsed),
    inFlight: ledger.inFlight.size,
    failures: ledger.failures,
    ...counters,
    leakedBytes: leaked.length * leakBytes,
    failure: failure ?? null,
  };
  console.log(`soak-summary ${JSON.stringify(summary)}`);
  if (failure !== undefined) throw new Error(`soak failed: ${failure}`);
}

main();
