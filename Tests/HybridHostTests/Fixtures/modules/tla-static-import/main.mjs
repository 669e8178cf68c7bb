import { value } from "./middle.mjs";
console.log("main sees", value);
