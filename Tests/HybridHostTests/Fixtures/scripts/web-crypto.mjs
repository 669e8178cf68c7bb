// WebCrypto with fixed keys, ivs and inputs, so that every line is the same under node and under
// `hybrid run` (WebCryptoTests compares them): a JWS (HS256) made by hand, AES-GCM, AES-CBC,
// AES-CTR and AES-KW bytes, PBKDF2 and HKDF bits, JWK exports, Ed25519's deterministic signature,
// and the names of the errors the specification gives. (Left out: where node 20 strays from the
// specification: exporting a non-extractable key rejects with "InvalidAccessException" there, and
// getRandomValues({}) throws a TypeMismatchError rather than Web IDL's TypeError;
// js/tests/web-crypto.test.js holds those.)
const subtle = crypto.subtle;
const encoder = new TextEncoder();
const hex = (buffer) => Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const sorted = (object) => JSON.stringify(object, Object.keys(object).sort());

// A JWS in compact form, HS256, as RFC 7515 builds it.
const header = base64url(encoder.encode(JSON.stringify({ alg: "HS256", typ: "JWT" })));
const payload = base64url(encoder.encode(JSON.stringify({ sub: "order-service", iat: 1700000000, scope: "orders:write" })));
const hmacKey = await subtle.importKey("raw", encoder.encode("a shared secret of thirty-two b!"), { name: "HMAC", hash: "SHA-256" }, true, ["sign", "verify"]);
const signature = await subtle.sign("HMAC", hmacKey, encoder.encode(`${header}.${payload}`));
const jws = `${header}.${payload}.${base64url(signature)}`;
console.log("jws", jws);
console.log("jws verifies", await subtle.verify({ name: "hmac" }, hmacKey, signature, encoder.encode(`${header}.${payload}`)));
console.log("jws tampered", await subtle.verify("HMAC", hmacKey, signature, encoder.encode(`${header}.${payload}x`)));
console.log("hmac jwk", sorted(await subtle.exportKey("jwk", hmacKey)));
console.log("hmac algorithm", sorted(hmacKey.algorithm), hmacKey.algorithm.hash.name);

for (const hash of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) {
  console.log("digest", hash, hex(await subtle.digest(hash, encoder.encode("abc"))));
}
const megabyte = new Uint8Array(1 << 20).map((_, i) => (i * 31) & 0xff);
console.log("digest 1 MB", hex(await subtle.digest("SHA-256", megabyte)));

const aesKey = await subtle.importKey("raw", new Uint8Array(32).map((_, i) => i), "AES-GCM", true, ["encrypt", "decrypt"]);
const iv = new Uint8Array(12).map((_, i) => 100 + i);
const sealed = await subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode("order 42") }, aesKey, encoder.encode("ship 3 widgets to Leeds"));
console.log("aes-gcm", hex(sealed));
console.log("aes-gcm open", new TextDecoder().decode(await subtle.decrypt({ name: "AES-GCM", iv, additionalData: encoder.encode("order 42") }, aesKey, sealed)));
const short = await subtle.encrypt({ name: "AES-GCM", iv, tagLength: 96 }, aesKey, encoder.encode("short tag"));
console.log("aes-gcm 96-bit tag", hex(short), new TextDecoder().decode(await subtle.decrypt({ name: "AES-GCM", iv, tagLength: 96 }, aesKey, short)));
const bigSealed = await subtle.encrypt({ name: "AES-GCM", iv }, aesKey, megabyte);
console.log("aes-gcm 1 MB", bigSealed.byteLength, hex(bigSealed.slice(-16)), hex(await subtle.digest("SHA-256", await subtle.decrypt({ name: "AES-GCM", iv }, aesKey, bigSealed))));

const cbcKey = await subtle.importKey("jwk", { kty: "oct", k: "AAECAwQFBgcICQoLDA0ODw", alg: "A128CBC" }, "AES-CBC", true, ["encrypt", "decrypt"]);
const cbc = await subtle.encrypt({ name: "AES-CBC", iv: new Uint8Array(16).fill(7) }, cbcKey, encoder.encode("seventeen bytes!!"));
console.log("aes-cbc", hex(cbc));
const ctrKey = await subtle.importKey("raw", new Uint8Array(16).fill(5), "AES-CTR", true, ["encrypt", "decrypt"]);
const counter = new Uint8Array(16).fill(0xff);
counter[0] = 1;
console.log("aes-ctr wrapping 8-bit counter", hex(await subtle.encrypt({ name: "AES-CTR", counter, length: 8 }, ctrKey, new Uint8Array(40))));
console.log("aes-ctr 128-bit counter", hex(await subtle.encrypt({ name: "AES-CTR", counter, length: 128 }, ctrKey, new Uint8Array(40))));
// Outputs on both sides of the size from which native code shares its ciphertext with JS instead of
// copying it, and of the size from which it works off the JS thread: each an ArrayBuffer of its own,
// the same bytes as node's, and each decrypting to its input.
const gcmKey = await subtle.importKey("raw", new Uint8Array(16).fill(9), "AES-GCM", false, ["encrypt", "decrypt"]);
const ciphers = [
  [gcmKey, { name: "AES-GCM", iv }],
  [gcmKey, { name: "AES-GCM", iv, tagLength: 96, additionalData: encoder.encode("order 42") }],
  [gcmKey, { name: "AES-GCM", iv: new Uint8Array(16).fill(4) }],
  [cbcKey, { name: "AES-CBC", iv: new Uint8Array(16).fill(7) }],
  [ctrKey, { name: "AES-CTR", counter, length: 64 }],
];
for (const size of [1000, 1008, 1009, 1024, 1025, 20000, 300000]) {
  const input = megabyte.subarray(0, size);
  for (const [key, params] of ciphers) {
    const output = await subtle.encrypt(params, key, input);
    const opened = await subtle.decrypt(params, key, output);
    console.log("cipher", params.name, params.tagLength ?? "", params.iv?.byteLength ?? "", size, output.byteLength, Object.prototype.toString.call(output),
      hex(await subtle.digest("SHA-256", output)).slice(0, 24), hex(await subtle.digest("SHA-256", opened)) === hex(await subtle.digest("SHA-256", input)));
  }
}

const password = await subtle.importKey("raw", encoder.encode("correct horse"), "PBKDF2", false, ["deriveBits", "deriveKey"]);
console.log("pbkdf2", hex(await subtle.deriveBits({ name: "PBKDF2", salt: encoder.encode("salt"), iterations: 1000, hash: "SHA-256" }, password, 256)));
const ikm = await subtle.importKey("raw", encoder.encode("input key material"), "HKDF", false, ["deriveBits", "deriveKey"]);
console.log("hkdf", hex(await subtle.deriveBits({ name: "HKDF", salt: encoder.encode("salt"), info: encoder.encode("info"), hash: "SHA-512" }, ikm, 512)));
const kek = await subtle.deriveKey({ name: "PBKDF2", salt: encoder.encode("kek"), iterations: 2000, hash: "SHA-1" }, password, { name: "AES-KW", length: 256 }, true, ["wrapKey", "unwrapKey"]);
console.log("derived kek", sorted(kek.algorithm), kek.usages.join(","), hex(await subtle.exportKey("raw", kek)));
const wrapped = await subtle.wrapKey("raw", aesKey, kek, "AES-KW");
console.log("aes-kw", hex(wrapped));
const unwrapped = await subtle.unwrapKey("raw", wrapped, kek, { name: "AES-KW" }, "AES-GCM", false, ["decrypt"]);
console.log("unwrapped", unwrapped.extractable, unwrapped.usages.join(","), new TextDecoder().decode(await subtle.decrypt({ name: "AES-GCM", iv, additionalData: encoder.encode("order 42") }, unwrapped, sealed)));
console.log("aes jwk", sorted(await subtle.exportKey("jwk", aesKey)));

const edKey = await subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", d: "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }, "Ed25519", false, ["sign"]);
console.log("ed25519", hex(await subtle.sign("Ed25519", edKey, encoder.encode("order 42"))));
const ecdsa = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
const ecSignature = await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, ecdsa.privateKey, encoder.encode("order 42"));
console.log("ecdsa", ecSignature.byteLength, await subtle.verify({ name: "ECDSA", hash: "SHA-256" }, ecdsa.publicKey, ecSignature, encoder.encode("order 42")));

const failures = {
  "digest MD5": () => subtle.digest("MD5", new Uint8Array(1)),
  "digest a string": () => subtle.digest("SHA-256", "abc"),
  "import 5 bytes as AES": () => subtle.importKey("raw", new Uint8Array(5), "AES-GCM", true, ["encrypt"]),
  "import AES for signing": () => subtle.importKey("raw", new Uint8Array(16), "AES-GCM", true, ["sign"]),
  "import an AES JWK of the wrong kty": () => subtle.importKey("jwk", { kty: "EC", k: "AAECAwQFBgcICQoLDA0ODw" }, "AES-GCM", true, ["encrypt"]),
  "import HMAC without a hash": () => subtle.importKey("raw", new Uint8Array(16), "HMAC", true, ["sign"]),
  "open with a wrong tag": () => subtle.decrypt({ name: "AES-GCM", iv }, aesKey, new Uint8Array(32)),
  "AES-GCM with a tag of 33 bits": () => subtle.encrypt({ name: "AES-GCM", iv, tagLength: 33 }, aesKey, new Uint8Array(1)),
  "AES-CBC with an iv of 8 bytes": () => subtle.encrypt({ name: "AES-CBC", iv: new Uint8Array(8) }, cbcKey, new Uint8Array(1)),
  "AES-CBC with bad padding": () => subtle.decrypt({ name: "AES-CBC", iv: new Uint8Array(16) }, cbcKey, new Uint8Array(16)),
  "generate AES of 100 bits": () => subtle.generateKey({ name: "AES-GCM", length: 100 }, true, ["encrypt"]),
  "generate a key with no usages": () => subtle.generateKey({ name: "AES-GCM", length: 128 }, true, []),
  "sign with an AES key": () => subtle.sign("HMAC", aesKey, new Uint8Array(1)),
  "PBKDF2 of 0 iterations": () => subtle.deriveBits({ name: "PBKDF2", salt: new Uint8Array(1), iterations: 0, hash: "SHA-256" }, password, 128),
  "PBKDF2 key that is extractable": () => subtle.importKey("raw", new Uint8Array(1), "PBKDF2", true, ["deriveBits"]),
  "wrap with a key that may not wrap": () => subtle.wrapKey("raw", aesKey, aesKey, { name: "AES-GCM", iv }),
};
for (const [what, attempt] of Object.entries(failures)) {
  try {
    await attempt();
    console.log(what, "did not fail");
  } catch (error) {
    console.log(what, error.name, error instanceof DOMException || error instanceof TypeError);
  }
}
const values = new Uint16Array(8);
console.log("getRandomValues", crypto.getRandomValues(values) === values, values.length);
for (const [what, array] of [["Float64Array", new Float64Array(2)], ["64 KiB + 1", new Uint8Array(65537)]]) {
  try {
    crypto.getRandomValues(array);
    console.log("getRandomValues", what, "did not fail");
  } catch (error) {
    console.log("getRandomValues", what, error.name);
  }
}
console.log("randomUUID", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()));
console.log(Object.prototype.toString.call(crypto), Object.prototype.toString.call(subtle), Object.prototype.toString.call(aesKey));
