import * as esm from "./values.mjs";
import * as cjs from "./legacy.cjs";
import * as empty from "./empty.mjs";
console.log(esm);
console.log(cjs);
console.log(empty);
console.log(Object.prototype.toString.call(esm), Object.getPrototypeOf(esm));
console.log({ nested: esm });
