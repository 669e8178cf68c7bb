import { flavor } from "dual";
import { feature } from "dual/feature";
import { name } from "dual/sub/thing";
import plain from "plain";
import tool from "@scope/tool";
import { fromRequire } from "./load.cjs";
console.log(flavor, "|", fromRequire, "|", feature, "|", name, "|", plain.main, "|", tool());
for (const request of ["dual/private/x", "dual/missing", "nothing-here", "./missing.mjs"]) {
  try {
    await import(request);
  } catch (error) {
    console.log(request, "->", error.code);
  }
}
