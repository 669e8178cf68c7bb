const esm = require("./lib.mjs");
console.log(esm.default, esm.named, Object.keys(esm).sort().join(","));
