const original = "renamed value";
export { original as renamed };
export default function greet(who) { return `hi ${who}`; }
export class Shape { constructor(side) { this.side = side; } area() { return this.side ** 2; } }
export * from "./star.mjs";
export * as nested from "./nested.mjs";
export { value as answer } from "./nested.mjs";
