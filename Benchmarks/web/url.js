"use strict";
// `new URL(input, base)` and `.href` over every input of WPT's urltestdata.json that parses (the
// failures are skipped); one op is one URL. The same file runs under node and under `hybrid run`:
//   node Benchmarks/web/url.js [seconds]
//   .build/release/hybrid run Benchmarks/web/url.js -- [seconds]
const { args, measure } = require("./measure.js");
const data = require("../../Tests/WebPlatformTests/wpt/url/resources/urltestdata.json");

const seconds = Number(args[0] ?? 3);
const inputs = [];
const bases = [];
for (const entry of data) {
  if (typeof entry !== "object" || entry.failure) continue;
  inputs.push(entry.input);
  bases.push(entry.base === null ? undefined : entry.base);
}

measure("url", inputs.length, () => {
  let length = 0;
  for (let i = 0; i < inputs.length; i++) length += new URL(inputs[i], bases[i]).href.length;
  return length;
}, seconds, { inputs: inputs.length });
