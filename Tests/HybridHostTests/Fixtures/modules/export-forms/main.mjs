import greet, { renamed, star, Shape, answer } from "./forms.mjs";
import * as all from "./forms.mjs";
import defaultAgain from "./reexport-default.mjs";
console.log(greet("x"), renamed, star, new Shape(2).area(), answer);
console.log(Object.keys(all).sort().join(","));
console.log(all.nested.inner, defaultAgain === greet);
