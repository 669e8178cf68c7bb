import { config } from "./config.mjs";
import { plain } from "./plain.mjs";
console.log("main runs after config:", config.ready, plain);
await new Promise((resolve) => setTimeout(resolve, 5));
console.log("main done");
