import { a, late } from "./a.mjs";
console.log("b evaluates first");
export const seenFromB = [a()];
try {
  seenFromB.push(late);
} catch (error) {
  seenFromB.push(error.name);
}
export function b() { return "b() sees " + late; }
