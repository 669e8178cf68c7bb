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
