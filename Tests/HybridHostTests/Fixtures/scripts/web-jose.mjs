// Debian's node-jose 4 (its web build, exports' "worker") signs and verifies JWTs (HS256, EdDSA, ES256) and
// encrypts and decrypts a compact JWE (dir + A256GCM) over the host's WebCrypto. WebAcceptanceTests
// runs it beside node_modules/jose under `hybrid run` and `node --conditions=worker` and compares.
import * as jose from "jose";

// Fixed keys, so that every deterministic output (HS256, EdDSA) is the same under every runtime.
const secret = new TextEncoder().encode("a 256-bit secret for HS256 tokens!");
const claims = { sub: "order-service", scope: "orders:write", iat: 1700000000, exp: 4102444800 };
const ed = { kty: "OKP", crv: "Ed25519", d: "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" };
const ec = {
  kty: "EC", crv: "P-256",
  x: "DiE8VbKGwSC2GsB7GP9zUl_C04-TiJRM9-l2M-CJhHg", y: "KsrqHIq7eh-tUtUhDH69HQb43dfMwYGJf2WLE_xLCQE",
  d: "4JadRXyJvBrMdF833bpKgFxzBEszD2mEQgCqlr5AfDw",
};

const hs = await new jose.SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(secret);
console.log("HS256", hs);
console.log("HS256 verified", JSON.stringify((await jose.jwtVerify(hs, secret)).payload));

const edPrivate = await jose.importJWK(ed, "EdDSA");
const edPublic = await jose.importJWK({ kty: ed.kty, crv: ed.crv, x: ed.x }, "EdDSA");
const eddsa = await new jose.SignJWT(claims).setProtectedHeader({ alg: "EdDSA" }).sign(edPrivate);
console.log("EdDSA", eddsa);
console.log("EdDSA verified", JSON.stringify((await jose.jwtVerify(eddsa, edPublic)).protectedHeader));

// ECDSA signatures are randomized: print what verification says, and the signature's length.
const ecPrivate = await jose.importJWK(ec, "ES256");
const ecPublic = await jose.importJWK({ kty: ec.kty, crv: ec.crv, x: ec.x, y: ec.y }, "ES256");
const es = await new jose.SignJWT(claims).setProtectedHeader({ alg: "ES256" }).sign(ecPrivate);
console.log("ES256 signature bytes", jose.base64url.decode(es.split(".")[2]).length);
console.log("ES256 verified", JSON.stringify((await jose.jwtVerify(es, ecPublic)).payload));
const tampered = es.slice(0, -4) + (es.endsWith("AAAA") ? "BBBB" : "AAAA");
console.log("ES256 tampered", await jose.jwtVerify(tampered, ecPublic).then(() => "accepted", (error) => error.code));

// A compact JWE, dir + A256GCM: the IV is random, so print the header and what decrypts.
const cek = new Uint8Array(32).map((_, i) => i * 7);
const jwe = await new jose.CompactEncrypt(new TextEncoder().encode("order #42: 3 x widget"))
  .setProtectedHeader({ alg: "dir", enc: "A256GCM" }).encrypt(cek);
console.log("JWE parts", jwe.split(".").map((part) => part.length > 0).join(","));
const opened = await jose.compactDecrypt(jwe, cek);
console.log("JWE", JSON.stringify(opened.protectedHeader), new TextDecoder().decode(opened.plaintext));
const wrongKey = new Uint8Array(32).fill(1);
console.log("JWE wrong key", await jose.compactDecrypt(jwe, wrongKey).then(() => "opened", (error) => error.code));
