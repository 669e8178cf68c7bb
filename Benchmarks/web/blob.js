"use strict";
// Blob: new Blob([1 MB Uint8Array]) then arrayBuffer(); one op is both. The same file runs under node
// and `hybrid run`:
//   node Benchmarks/web/blob.js blob-1m-arraybuffer [seconds]
//   .build/release/hybrid run Benchmarks/web/blob.js -- blob-1m-arraybuffer [seconds]
const { args, measureAsync } = require("./measure.js");

const workload = args[0];
const seconds = Number(args[1] ?? 2);
const megabyte = new Uint8Array(1 << 20).fill(7);

switch (workload) {
  case "blob-1m-arraybuffer":
    measureAsync(workload, 1, async () => (await new Blob([megabyte]).arrayBuffer()).byteLength & 0xff, seconds);
    break;
  default:
    throw new Error(`blob.js: unknown workload ${JSON.stringify(workload)}; expected blob-1m-arraybuffer`);
}
