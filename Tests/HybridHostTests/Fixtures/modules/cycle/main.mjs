import { a, describeB } from "./a.mjs";
import * as namespaceOfA from "./a.mjs";
console.log("main:", a(), describeB());
console.log("a's exports after the cycle:", Object.keys(namespaceOfA).join(","), namespaceOfA.late, typeof namespaceOfA.a);
