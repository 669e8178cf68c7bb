"use strict";
// fetch over loopback against `hybrid-bench network --serve`, the same file under node and under
// `hybrid run` (an app folder whose app.json grants network:127.0.0.1):
//   node Benchmarks/web/fetch.js fetch-small BASE [count] [inFlight]
//   hybrid run APP -- fetch-small BASE [count] [inFlight]
// fetch-small: `count` GETs of a 2-byte answer, `inFlight` at a time, each read with text(); a
// warm-up burst, then 3 timed ones. request-small: the same through Hybrid.call("network",
// "request") (hybrid only). fetch-body: one GET of `count` MB read through response.body's reader.
const { args } = require("./measure.js");

const [workload, base] = args;
const count = Number(args[2] ?? 1000);
const inFlight = Number(args[3] ?? 64);

let check = 0;

async function burst(one) {
  let next = 0;
  const worker = async () => {
    while (next < count) check += await one(next++);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
}

async function timedBursts(name, one) {
  await burst(one);
  const start = performance.now();
  for (let round = 0; round < 3; round++) await burst(one);
  const seconds = (performance.now() - start) / 1000;
  console.log(JSON.stringify({ name, ops: 3 * count, seconds: +seconds.toFixed(4), check: check % 1000 }));
}

async function readBody() {
  const start = performance.now();
  const response = await fetch(`${base}/big?n=${count << 20}`);
  const reader = response.body.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
  }
  if (bytes !== count << 20) throw new Error(`fetch-body: read ${bytes} bytes, expected ${count << 20}`);
  const seconds = (performance.now() - start) / 1000;
  console.log(JSON.stringify({ name: "fetch-body", ops: count, seconds: +seconds.toFixed(4), check: 0 }));
}

switch (workload) {
  case "fetch-small":
    timedBursts(workload, async (i) => (await (await fetch(`${base}/small?i=${i}`)).text()).length);
    break;
  case "request-small":
    timedBursts(workload, async (i) => (await Hybrid.call("network", "request", { url: `${base}/small?i=${i}`, responseType: "text" })).body.length);
    break;
  case "fetch-body":
    readBody();
    break;
  default:
    throw new Error(`fetch.js: unknown workload ${JSON.stringify(workload)}; expected fetch-small, request-small or fetch-body`);
}
