import { count, increment, reset as zero } from "./counter.mjs";
import * as counter from "./counter.mjs";
console.log("start", count, counter.count);
increment();
increment();
console.log("after two", count, counter.count);
zero();
console.log("after reset", count);
try {
  counter.count = 5;
} catch (error) {
  console.log("namespace is read-only:", error instanceof TypeError);
}
try {
  counter.increment = null;
} catch (error) {
  console.log("a function export is read-only too:", error instanceof TypeError);
}
console.log(typeof counter.increment, Object.keys(counter).join(","), "increment" in counter);
