import { b, seenFromB } from "./b.mjs";
export let late = "late value";
console.log("a evaluates, b says", b());
export function a() { return "a()"; }
export function describeB() { return seenFromB; }
