import { value as slow } from "./slow.mjs";
console.log("middle evaluates after slow:", slow);
export function helper() { return "hoisted"; }
export const value = slow + 1;
