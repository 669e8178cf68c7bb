import legacy, { name, version } from "./legacy.cjs";
import * as ns from "./legacy.cjs";
import fn from "./function.cjs";
import transpiled from "./transpiled.cjs";
console.log(legacy, name, version);
console.log(Object.keys(ns).sort(), ns.default === legacy, ns.name);
console.log(typeof fn, fn(), fn.extra);
console.log(transpiled.__esModule, typeof transpiled.default, transpiled.default.value);
