"use strict";
// structuredClone of a JSON-shaped object whose JSON is 1 MB (records of strings, numbers,
// booleans, nulls, nested objects and arrays), and of a 10 MB ArrayBuffer (copied, not
// transferred); one op is one clone. The same file runs under node and `hybrid run`:
//   node Benchmarks/web/structured-clone.js WORKLOAD [seconds]
//   .build/release/hybrid run Benchmarks/web/structured-clone.js -- WORKLOAD [seconds]
// WORKLOAD: clone-json-1m or clone-arraybuffer-10m.
const { args, measure } = require("./measure.js");

const workload = args[0];
const seconds = Number(args[1] ?? 2);

function record(i) {
  return {
    id: i,
    name: `item ${i}`,
    price: i * 1.25,
    active: i % 3 === 0,
    note: i % 5 === 0 ? null : "lorem ipsum dolor sit amet",
    tags: ["red", "green", `t${i % 17}`],
    owner: { id: i % 97, email: `user${i % 97}@example.com`, roles: ["reader", i % 2 ? "writer" : "admin"] },
  };
}

switch (workload) {
  case "clone-json-1m": {
    const records = [];
    for (let size = 0; size < 1 << 20; ) {
      const next = record(records.length);
      size += JSON.stringify(next).length + 1;
      records.push(next);
    }
    const value = { kind: "page", version: 3, records };
    measure(workload, 1, () => structuredClone(value).records.length, seconds,
      { bytes: JSON.stringify(value).length, records: records.length });
    break;
  }
  case "clone-arraybuffer-10m": {
    const buffer = new ArrayBuffer(10 << 20);
    new Uint8Array(buffer).fill(7);
    measure(workload, 1, () => structuredClone(buffer).byteLength & 0xff, seconds, { bytes: buffer.byteLength });
    break;
  }
  default:
    throw new Error(`structured-clone.js: unknown workload ${JSON.stringify(workload)}; expected clone-json-1m or clone-arraybuffer-10m`);
}
