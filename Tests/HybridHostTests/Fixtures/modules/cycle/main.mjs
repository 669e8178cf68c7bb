import { a, describeB } from "./a.mjs";
console.log("main:", a(), describeB());
