import { twice } from "./math.js";
console.log("detected as an ES module:", twice(21));
