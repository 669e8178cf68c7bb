"use strict";
// WebCrypto: crypto.subtle.digest("SHA-256") of 1 MB, crypto.getRandomValues of 64 bytes, an ES256
// (ECDSA P-256, SHA-256) sign and verify of a 1 KB message, AES-GCM encryption of 1 MB. One op is
// one call (one sign plus one verify for es256). The same file runs under node and `hybrid run`:
//   node Benchmarks/web/crypto.js WORKLOAD [seconds]
//   .build/release/hybrid run Benchmarks/web/crypto.js -- WORKLOAD [seconds]
// WORKLOAD: digest-sha256-1m, random-64, es256-sign-verify or aes-gcm-1m.
const { args, measure, measureAsync } = require("./measure.js");

const workload = args[0];
const seconds = Number(args[1] ?? 2);
const subtle = crypto.subtle;
const megabyte = new Uint8Array(1 << 20).map((_, i) => (i * 31) & 0xff);

async function main() {
  switch (workload) {
    case "digest-sha256-1m":
      await measureAsync(workload, 1, async () => new Uint8Array(await subtle.digest("SHA-256", megabyte))[0], seconds);
      break;
    case "random-64": {
      const array = new Uint8Array(64);
      measure(workload, 1000, () => {
        let sum = 0;
        for (let i = 0; i < 1000; i++) sum += crypto.getRandomValues(array)[0];
        return sum;
      }, seconds);
      break;
    }
    case "es256-sign-verify": {
      const { privateKey, publicKey } = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
      const message = megabyte.subarray(0, 1024);
      const algorithm = { name: "ECDSA", hash: "SHA-256" };
      await measureAsync(workload, 1, async () => {
        const signature = await subtle.sign(algorithm, privateKey, message);
        return (await subtle.verify(algorithm, publicKey, signature, message)) ? 1 : 0;
      }, seconds);
      break;
    }
    case "aes-gcm-1m": {
      const key = await subtle.importKey("raw", new Uint8Array(32).fill(9), "AES-GCM", false, ["encrypt"]);
      const iv = new Uint8Array(12).fill(1);
      await measureAsync(workload, 1, async () => (await subtle.encrypt({ name: "AES-GCM", iv }, key, megabyte)).byteLength & 0xff, seconds);
      break;
    }
    default:
      throw new Error(`crypto.js: unknown workload ${JSON.stringify(workload)}; expected digest-sha256-1m, random-64, es256-sign-verify or aes-gcm-1m`);
  }
}
main();
