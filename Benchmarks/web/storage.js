"use strict";
// localStorage.getItem of a present key, and setItem, each of which has committed to the app's kv
// store when it returns (a transaction per call); sessionStorage.setItem (memory only) to compare.
// One op is one call, over 1,000 keys. Prints one JSON line:
//   .build/release/hybrid run Benchmarks/web/storage.js --data-dir /tmp/bench-storage -- WORKLOAD [seconds]
// WORKLOAD: getItem, setItem or session-setItem. A fresh --data-dir: the app's earlier items would
// count against the quota. Any runtime with localStorage runs it; node 20 has none.
const { args, measure } = require("./measure.js");

const workload = args[0];
const seconds = Number(args[1] ?? 2);
const keys = 1000;

localStorage.clear();
sessionStorage.clear();
// Each round gives every key a new value: setting the value a key already has writes nothing.
function set(storage) {
  return (r) => {
    for (let i = 0; i < keys; i++) storage.setItem(`key${i}`, `value ${r} ${i}`);
    return storage.length;
  };
}

switch (workload) {
  case "setItem": measure(workload, keys, set(localStorage), seconds); break;
  case "session-setItem": measure(workload, keys, set(sessionStorage), seconds); break;
  case "getItem": {
    set(localStorage)(0);
    const names = Array.from({ length: keys }, (_, i) => `key${i}`);
    measure(workload, keys * 100, () => {
      let length = 0;
      for (let n = 0; n < 100; n++) {
        for (let i = 0; i < keys; i++) length += localStorage.getItem(names[i]).length;
      }
      return length;
    }, seconds);
    break;
  }
  default:
    throw new Error(`storage.js: unknown workload ${JSON.stringify(workload)}; expected getItem, setItem or session-setItem`);
}
localStorage.clear();
