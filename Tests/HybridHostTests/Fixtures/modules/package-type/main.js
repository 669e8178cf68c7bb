import { where } from "./lib.js";
import legacy from "./old.cjs";
console.log(where, legacy.where);
