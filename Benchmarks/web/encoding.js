"use strict";
// TextEncoder.encode and TextDecoder.decode of 1 KB of ASCII, 1 KB of CJK and 1 MB of mixed text
// (ASCII, Latin, Cyrillic, CJK, emoji), and a 1 MB gb18030 decode; one op is one call. Sizes are
// UTF-8 bytes (and gb18030 bytes for that decode). The same file runs under node and `hybrid run`:
//   node Benchmarks/web/encoding.js WORKLOAD [seconds] [gb18030.json]
//   .build/release/hybrid run Benchmarks/web/encoding.js -- WORKLOAD [seconds] [gb18030.json]
// WORKLOAD: encode-ascii-1k, encode-cjk-1k, encode-mixed-1m, decode-ascii-1k, decode-cjk-1k,
// decode-mixed-1m or decode-gb18030-1m, which reads its bytes from a JSON file {"base64": "..."}
// (`hybrid-bench web` writes it with python3: node can decode gb18030 but not encode it).
const { args, measure } = require("./measure.js");

const workload = args[0];
const seconds = Number(args[1] ?? 2);

// `count` characters of `alphabet`, in a fixed order that is not a short repetition.
function text(alphabet, count) {
  let result = "";
  for (let i = 0; result.length < count; i++) result += alphabet[(i * 7 + (i >> 3)) % alphabet.length];
  return result;
}

const ascii = text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:-_/()", 1024);
// 341 CJK ideographs: 1,023 bytes of UTF-8.
const cjk = text(Array.from({ length: 500 }, (_, i) => String.fromCharCode(0x4e00 + i * 37)).join(""), 341);
// Words of each script in turn until 1 MB of UTF-8.
const words = ["HybridHost ", "déjà vu ", "Größe ", "привет ", "東京都 ", "中文编码 ", "😀🚀 ", "naïve ", "κόσμε ", "abc123 "];
const encoder = new TextEncoder();
let mixed = "";
for (let i = 0, size = 0; ; i++) {
  let chunk = "";
  for (let j = 0; j < 100; j++) chunk += words[(i * 100 + j * 3 + (j >> 2)) % words.length];
  size += encoder.encode(chunk).length;
  if (size > 1 << 20) break;
  mixed += chunk;
}

const decoder = new TextDecoder();

function encode(name, input, calls) {
  measure(name, calls, () => {
    let length = 0;
    for (let i = 0; i < calls; i++) length += encoder.encode(input).length;
    return length;
  }, seconds, { bytes: encoder.encode(input).length });
}

function decode(name, bytes, calls, using = decoder) {
  measure(name, calls, () => {
    let length = 0;
    for (let i = 0; i < calls; i++) length += using.decode(bytes).length;
    return length;
  }, seconds, { bytes: bytes.length });
}

switch (workload) {
  case "encode-ascii-1k": encode(workload, ascii, 1000); break;
  case "encode-cjk-1k": encode(workload, cjk, 1000); break;
  case "encode-mixed-1m": encode(workload, mixed, 1); break;
  case "decode-ascii-1k": decode(workload, encoder.encode(ascii), 1000); break;
  case "decode-cjk-1k": decode(workload, encoder.encode(cjk), 1000); break;
  case "decode-mixed-1m": decode(workload, encoder.encode(mixed), 1); break;
  case "decode-gb18030-1m": {
    const base64 = require(args[2]).base64;
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    decode(workload, bytes, 1, new TextDecoder("gb18030"));
    break;
  }
  default:
    throw new Error(`encoding.js: unknown workload ${JSON.stringify(workload)}; expected encode-ascii-1k, encode-cjk-1k, encode-mixed-1m, decode-ascii-1k, decode-cjk-1k, decode-mixed-1m or decode-gb18030-1m`);
}
