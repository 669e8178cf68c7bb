// WebCrypto as H5 code meets it (js/web/crypto.js over Sources/WebPlatform/WebCrypto*.swift):
// what node does not share with us, or shares differently. WebCryptoTests runs a fixture under
// hybrid and node and compares the bytes; the web-platform-tests' WebCryptoAPI/ hold the
// specification's own cases (scripts/wpt WebCryptoAPI).

const subtle = crypto.subtle;
const encoder = new TextEncoder();
const hex = (buffer) => Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

describe("crypto", () => {
  test("is a global of the web platform, with Web IDL interfaces that scripts cannot construct", () => {
    // The first read (the `subtle` above) installed the group: plain data properties since.
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, "CryptoKey");
    expect([descriptor.writable, descriptor.enumerable, descriptor.configurable]).toEqual([true, false, true]);
    expect(crypto).toBeInstanceOf(Crypto);
    expect(crypto.subtle).toBe(crypto.subtle);
    expect(Object.keys(Crypto.prototype)).toEqual(["subtle", "getRandomValues", "randomUUID"]);
    expect(Object.keys(SubtleCrypto.prototype)).toEqual(["encrypt", "decrypt", "sign", "verify", "digest", "generateKey", "deriveKey",
      "deriveBits", "importKey", "exportKey", "wrapKey", "unwrapKey"]);
    expect(Object.keys(CryptoKey.prototype)).toEqual(["type", "extractable", "algorithm", "usages"]);
    expect(() => new Crypto()).toThrow(TypeError);
    expect(() => new SubtleCrypto()).toThrow(/use crypto.subtle/);
    expect(() => new CryptoKey()).toThrow(/Illegal constructor/);
    expect(() => Crypto.prototype.getRandomValues.call({}, new Uint8Array(1))).toThrow(/'this' is not a Crypto/);
  });

  test("getRandomValues fills integer arrays in place; other views are a TypeMismatchError, more than 64 KiB a QuotaExceededError", () => {
    const array = new Uint32Array(16);
    expect(crypto.getRandomValues(array)).toBe(array);
    expect(array.some((value) => value !== 0)).toBe(true);
    const view = new Uint8Array(new ArrayBuffer(32), 8, 8);
    crypto.getRandomValues(view);
    expect(Array.from(new Uint8Array(view.buffer, 0, 8))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(crypto.getRandomValues(new BigInt64Array(2)).length).toBe(2);
    expect(crypto.getRandomValues(new Uint8Array(65536)).length).toBe(65536);
    for (const bad of [new Float32Array(1), new Float64Array(1), new DataView(new ArrayBuffer(4))]) {
      expect(() => crypto.getRandomValues(bad)).toThrow(expect.objectContaining({ name: "TypeMismatchError" }));
    }
    const quota = (() => { try { crypto.getRandomValues(new Uint8Array(65537)); } catch (error) { return error; } })();
    expect(quota.name).toBe("QuotaExceededError");
    expect(quota.message).toMatch(/65537 bytes, more than the 65536/);
    // Web IDL's ArrayBufferView conversion: anything else is a TypeError (node 20 says TypeMismatchError).
    expect(() => crypto.getRandomValues({})).toThrow(TypeError);
    expect(() => crypto.getRandomValues(new ArrayBuffer(4))).toThrow(TypeError);
  });

  test("randomUUID gives version 4 UUIDs, each new", () => {
    const uuids = new Set(Array.from({ length: 100 }, () => crypto.randomUUID()));
    expect(uuids.size).toBe(100);
    for (const uuid of uuids) expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("CryptoKey", () => {
  test("a key that is not extractable shows no material: no own properties, exportKey and wrapKey refuse it", async () => {
    const key = await subtle.importKey("raw", new Uint8Array(16).fill(42), "AES-GCM", false, ["encrypt", "decrypt"]);
    expect(Reflect.ownKeys(key)).toEqual([]);
    expect(JSON.stringify(key)).toBe("{}");
    expect(Object.getOwnPropertyNames(Object.getPrototypeOf(key)).sort()).toEqual(["algorithm", "constructor", "extractable", "type", "usages"]);
    for (const member of ["algorithm", "usages", "type", "extractable"]) expect(JSON.stringify(key[member])).not.toMatch(/42|KioqKio/);
    const exported = await rejection(subtle.exportKey("raw", key));
    expect(exported.name).toBe("InvalidAccessError"); // node 20: "InvalidAccessException"
    expect(exported.message).toBe("exportKey: the key is not extractable");
    expect((await rejection(subtle.exportKey("jwk", key))).name).toBe("InvalidAccessError");
    const kek = await subtle.generateKey({ name: "AES-KW", length: 128 }, true, ["wrapKey"]);
    expect((await rejection(subtle.wrapKey("raw", key, kek, "AES-KW"))).message).toBe("wrapKey: the key is not extractable");
    // A structured clone is the same key, material still native: it decrypts what the original sealed.
    const copy = structuredClone(key);
    expect(copy).toBeInstanceOf(CryptoKey);
    expect(copy).not.toBe(key);
    expect([copy.type, copy.extractable, copy.algorithm.name, copy.usages.join()]).toEqual(["secret", false, "AES-GCM", "encrypt,decrypt"]);
    const iv = new Uint8Array(12);
    const sealed = await subtle.encrypt({ name: "AES-GCM", iv }, key, encoder.encode("hi"));
    expect(new TextDecoder().decode(await subtle.decrypt({ name: "AES-GCM", iv }, copy, sealed))).toBe("hi");
  });

  test("algorithm and usages are the same objects on each read, and changing them changes no key", async () => {
    const key = await subtle.generateKey({ name: "HMAC", hash: "sha-256" }, true, ["sign", "verify", "sign"]);
    expect(key.algorithm).toBe(key.algorithm);
    expect(key.usages).toBe(key.usages);
    expect(key.usages).toEqual(["sign", "verify"]);
    expect(key.algorithm).toEqual({ name: "HMAC", length: 512, hash: { name: "SHA-256" } });
    key.algorithm.hash.name = "SHA-1";
    key.usages.length = 0;
    const signature = await subtle.sign("HMAC", key, encoder.encode("x"));
    expect(signature.byteLength).toBe(32);
    expect((await subtle.exportKey("jwk", key)).key_ops).toEqual(["sign", "verify"]);
  });

  test("the input is copied when the call is made: changing it afterwards changes nothing", async () => {
    const key = await subtle.importKey("raw", new Uint8Array(16), "AES-CBC", true, ["encrypt"]);
    const data = new Uint8Array(64).fill(1);
    const iv = new Uint8Array(16);
    const expected = hex(await subtle.encrypt({ name: "AES-CBC", iv }, key, data));
    const pending = subtle.encrypt({ name: "AES-CBC", iv }, key, data);
    data.fill(2);
    iv.fill(3);
    expect(hex(await pending)).toBe(expected);
  });
});

describe("SubtleCrypto", () => {
  test("digests of large inputs run off the JS thread and settle in order of completion, each right", async () => {
    const big = new Uint8Array(4 << 20).fill(7);
    const [a, b, small] = await Promise.all([subtle.digest("SHA-256", big), subtle.digest("SHA-512", big), subtle.digest("SHA-1", new Uint8Array(0))]);
    expect(hex(a)).toBe(hex(await subtle.digest({ name: "sha-256" }, big.slice())));
    expect(b.byteLength).toBe(64);
    expect(hex(small)).toBe("da39a3ee5e6b4b0d3255bfef95601890afd80709");
  });

  test("errors are the specification's, and their messages say what was expected", async () => {
    const aes = await subtle.importKey("raw", new Uint8Array(16), "AES-GCM", false, ["encrypt"]);
    const cases = [
      [subtle.digest("MD5", new Uint8Array(1)), "NotSupportedError", "digest: the algorithm MD5 is not supported here"],
      [subtle.digest({}, new Uint8Array(1)), "TypeError", "digest: the algorithm has no name"],
      [subtle.digest("SHA-256", "text"), "TypeError", "digest: data: expected an ArrayBuffer, a typed array or a DataView"],
      [subtle.digest("SHA-256"), "TypeError", "2 arguments required, but only 1 present"],
      [subtle.importKey("raw", new Uint8Array(5), "AES-GCM", true, ["encrypt"]), "DataError", "expected a key of 128, 192 or 256 bits, got 40"],
      [subtle.importKey("raw", new Uint8Array(16), "AES-GCM", true, ["sign"]), "SyntaxError", 'the usage "sign" is not allowed; expected only encrypt, decrypt, wrapKey, unwrapKey'],
      [subtle.importKey("raw", new Uint8Array(16), "AES-GCM", true, ["fly"]), "TypeError", '"fly" is not a key usage'],
      [subtle.importKey("pem", new Uint8Array(16), "AES-GCM", true, ["encrypt"]), "TypeError", '"pem" is not a key format'],
      [subtle.importKey("spki", new Uint8Array(16), "AES-GCM", true, ["encrypt"]), "NotSupportedError", "expected the raw or jwk format, got spki"],
      [subtle.importKey("raw", new Uint8Array(16), { name: "HMAC" }, true, ["sign"]), "TypeError", "the algorithm's hash is required"],
      [subtle.importKey("jwk", { kty: "oct", k: "not base64url!" }, "AES-GCM", true, ["encrypt"]), "DataError", "JWK member k: not base64url"],
      [subtle.importKey("jwk", { kty: "oct", k: "AAAAAAAAAAAAAAAAAAAAAA", alg: "A256GCM" }, "AES-GCM", true, ["encrypt"]), "DataError", "alg is A256GCM, expected A128GCM"],
      [subtle.importKey("jwk", { kty: "oct", k: "AAAAAAAAAAAAAAAAAAAAAA", ext: false }, "AES-GCM", true, ["encrypt"]), "DataError", "ext is false"],
      [subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12), tagLength: 40 }, aes, new Uint8Array(1)), "OperationError", "expected a tagLength of 32, 64, 96, 104, 112, 120 or 128, got 40"],
      [subtle.encrypt({ name: "AES-GCM" }, aes, new Uint8Array(1)), "TypeError", "the algorithm's iv is required"],
      [subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12), tagLength: 256 }, aes, new Uint8Array(1)), "TypeError", "expected an integer from 0 to 255, got 256"],
      [subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, aes, new Uint8Array(1)), "InvalidAccessError", 'do not include "decrypt"'],
      [subtle.encrypt({ name: "AES-CBC", iv: new Uint8Array(16) }, aes, new Uint8Array(1)), "InvalidAccessError", "the key is a AES-GCM key, not a AES-CBC key"],
      [subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, {}, new Uint8Array(1)), "TypeError", "encrypt: expected a CryptoKey"],
      [subtle.generateKey({ name: "AES-CTR", length: 64 }, true, ["encrypt"]), "OperationError", "expected a length of 128, 192 or 256, got 64"],
      [subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, true, []), "SyntaxError", "a secret key needs at least one usage"],
      [subtle.generateKey({ name: "ML-DSA-65" }, true, ["sign"]), "NotSupportedError", "ML-DSA-65 is not supported"],
    ];
    for (const [promise, name, message] of cases) {
      const error = await rejection(promise);
      expect(`${error.name}: ${error.message}`).toContain(`${name}: `);
      expect(error.message).toContain(message);
      if (name === "TypeError") expect(error).toBeInstanceOf(TypeError);
      else expect(error).toBeInstanceOf(DOMException);
    }
  });

  test("deriveBits: null length is the whole ECDH secret, an OperationError for PBKDF2 and HKDF", async () => {
    const password = await subtle.importKey("raw", encoder.encode("pw"), "PBKDF2", false, ["deriveBits"]);
    const pbkdf2 = { name: "PBKDF2", salt: new Uint8Array(8), iterations: 10, hash: "SHA-256" };
    expect((await rejection(subtle.deriveBits(pbkdf2, password, null))).name).toBe("OperationError");
    expect((await rejection(subtle.deriveBits(pbkdf2, password, 12))).message).toContain("a multiple of 8");
    expect((await subtle.deriveBits(pbkdf2, password, 128)).byteLength).toBe(16);
    const alice = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
    const bob = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
    const whole = await subtle.deriveBits({ name: "ECDH", public: bob.publicKey }, alice.privateKey, null);
    expect(whole.byteLength).toBe(32);
    expect(hex(await subtle.deriveBits({ name: "ECDH", public: alice.publicKey }, bob.privateKey, 256))).toBe(hex(whole));
  });
});

// What OpenSSL's libcrypto does where swift-crypto cannot (WebCryptoLibCrypto.swift): Ed448, X448,
// RSA-OAEP with a label or SHA-384/512, RSA-PSS with any salt. WebCryptoTests checks the same
// against node's own outputs (Fixtures/scripts/web-crypto-libcrypto.mjs).
describe("Curve448 and the RSA paddings swift-crypto lacks", () => {
  const bytes = (text) => new Uint8Array((text.match(/../g) ?? []).map((pair) => parseInt(pair, 16)));
  const base64urlBytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const ed448PKCS8 = (secret) => bytes("3047020100300506032b6571043b0439" + secret);
  const x448PKCS8 = (secret) => bytes("3046020100300506032b656f043a0438" + secret);
  const rsaParameters = (name, hash) => ({ name, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash });

  test("Ed448 signs RFC 8032 §7.4's vectors to their signatures, and verifies them", async () => {
    const vectors = [
      {
        secret: "6c82a562cb808d10d632be89c8513ebf6c929f34ddfa8c9f63c9960ef6e348a3528c8a3fcc2f044e39a3fc5b94492f8f032e7549a20098f95b",
        public: "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180",
        message: "",
        signature: "533a37f6bbe457251f023c0d88f976ae2dfb504a843e34d2074fd823d41a591f2b233f034f628281f2fd7a22ddd47d7828c59bd0a21bfd39"
          + "80ff0d2028d4b18a9df63e006c5d1c2d345b925d8dc00b4104852db99ac5c7cdda8530a113a0f4dbb61149f05a7363268c71d95808ff2e652600",
      },
      {
        secret: "c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463afbea67c5e8d2877c5e3bc397a659949ef8021e954e0a12274e",
        public: "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c0866aea01eb00742802b8438ea4cb82169c235160627b4c3a9480",
        message: "03",
        signature: "26b8f91727bd62897af15e41eb43c377efb9c610d48f2335cb0bd0087810f4352541b143c4b981b7e18f62de8ccdf633fc1bf037ab7cd779"
          + "805e0dbcc0aae1cbcee1afb2e027df36bc04dcecbf154336c19f0af7e0a6472905e799f1953d2a0ff3348ab21aa4adafd1d234441cf807c03a00",
      },
    ];
    for (const vector of vectors) {
      const privateKey = await subtle.importKey("pkcs8", ed448PKCS8(vector.secret), "Ed448", true, ["sign"]);
      const publicKey = await subtle.importKey("raw", bytes(vector.public), { name: "ed448" }, true, ["verify"]);
      expect([privateKey.type, privateKey.algorithm, publicKey.type]).toEqual(["private", { name: "Ed448" }, "public"]);
      expect(hex(await subtle.sign("Ed448", privateKey, bytes(vector.message)))).toBe(vector.signature);
      expect(await subtle.verify("Ed448", publicKey, bytes(vector.signature), bytes(vector.message))).toBe(true);
      expect(await subtle.verify("Ed448", publicKey, bytes(vector.signature), encoder.encode("another message"))).toBe(false);
      expect(await subtle.verify("Ed448", publicKey, bytes(vector.signature).slice(1), bytes(vector.message))).toBe(false);
      // The private key's JWK carries the public key it derives.
      const jwk = await subtle.exportKey("jwk", privateKey);
      expect([jwk.kty, jwk.crv, jwk.alg, hex(base64urlBytes(jwk.x)), hex(base64urlBytes(jwk.d))]).toEqual(["OKP", "Ed448", undefined, vector.public, vector.secret]);
    }
  });

  test("X448 agrees on RFC 7748 §6.2's shared secret from either side, and derives keys from it", async () => {
    const alice = await subtle.importKey("pkcs8", x448PKCS8("9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf574a9419744897391006382a6f127ab1d9ac2d8c0a598726b"),
      "X448", true, ["deriveBits", "deriveKey"]);
    const bob = await subtle.importKey("pkcs8", x448PKCS8("1c306a7ac2a0e2e0990b294470cba339e6453772b075811d8fad0d1d6927c120bb5ee8972b0d3e21374c9c921b09d1b0366f10b65173992d"),
      "X448", true, ["deriveBits"]);
    const publicOf = async (key) => subtle.importKey("jwk", { kty: "OKP", crv: "X448", x: (await subtle.exportKey("jwk", key)).x }, "X448", true, []);
    const alicePublic = await publicOf(alice), bobPublic = await publicOf(bob);
    expect(hex(await subtle.exportKey("raw", alicePublic))).toBe("9b08f7cc31b7e3e67d22d5aea121074a273bd2b83de09c63faa73d2c22c5d9bbc836647241d953d40c5b12da88120d53177f80e532c41fa0");
    expect(hex(await subtle.exportKey("raw", bobPublic))).toBe("3eb7a829b0cd20f5bcfc0b599b6feccf6da4627107bdb0d4f345b43027d8b972fc3e34fb4232a13ca706dcb57aec3dae07bdc1c67bf33609");
    const secret = "07fff4181ac6cc95ec1c16a94a0f74d12da232ce40a77552281d282bb60c0b56fd2464c335543936521c24403085d59a449a5037514a879d";
    expect(hex(await subtle.deriveBits({ name: "X448", public: bobPublic }, alice, null))).toBe(secret);
    expect(hex(await subtle.deriveBits({ name: "X448", public: alicePublic }, bob, 448))).toBe(secret);
    expect(hex(await subtle.deriveBits({ name: "X448", public: alicePublic }, bob, 12))).toBe("07f0");
    const aes = await subtle.deriveKey({ name: "X448", public: bobPublic }, alice, { name: "AES-GCM", length: 128 }, true, ["encrypt"]);
    expect(hex(await subtle.exportKey("raw", aes))).toBe(secret.slice(0, 32));
    // A public key of small order gives an all-zero secret, which is refused.
    const zero = await subtle.importKey("raw", new Uint8Array(56), "X448", true, []);
    expect((await rejection(subtle.deriveBits({ name: "X448", public: zero }, alice, null))).name).toBe("OperationError");
  });

  test("generated Ed448 and X448 keys survive every format, and a key that is not extractable stays native", async () => {
    const signer = await subtle.generateKey("Ed448", false, ["sign", "verify"]);
    const signature = await subtle.sign("Ed448", signer.privateKey, encoder.encode("order 42"));
    expect(signature.byteLength).toBe(114);
    for (const format of ["raw", "spki", "jwk"]) {
      const exported = await subtle.exportKey(format, signer.publicKey);
      const copy = await subtle.importKey(format, exported, "Ed448", true, ["verify"]);
      expect(await subtle.verify("Ed448", copy, signature, encoder.encode("order 42"))).toBe(true);
    }
    expect((await rejection(subtle.exportKey("pkcs8", signer.privateKey))).message).toBe("exportKey: the key is not extractable");
    expect(Reflect.ownKeys(signer.privateKey)).toEqual([]);
    const clone = structuredClone(signer.privateKey);
    expect(await subtle.verify("Ed448", signer.publicKey, await subtle.sign("Ed448", clone, encoder.encode("x")), encoder.encode("x"))).toBe(true);

    const a = await subtle.generateKey({ name: "X448" }, true, ["deriveBits"]);
    const b = await subtle.generateKey({ name: "X448" }, true, ["deriveBits"]);
    const fromPKCS8 = await subtle.importKey("pkcs8", await subtle.exportKey("pkcs8", a.privateKey), "X448", false, ["deriveBits"]);
    const fromSPKI = await subtle.importKey("spki", await subtle.exportKey("spki", b.publicKey), "X448", true, []);
    const fromJWK = await subtle.importKey("jwk", await subtle.exportKey("jwk", a.privateKey), "X448", false, ["deriveBits"]);
    const expected = hex(await subtle.deriveBits({ name: "X448", public: b.publicKey }, a.privateKey, null));
    expect(expected.length).toBe(112);
    expect(hex(await subtle.deriveBits({ name: "X448", public: fromSPKI }, fromPKCS8, null))).toBe(expected);
    expect(hex(await subtle.deriveBits({ name: "X448", public: a.publicKey }, b.privateKey, null))).toBe(expected);
    expect(hex(await subtle.deriveBits({ name: "X448", public: fromSPKI }, fromJWK, null))).toBe(expected);
  });

  test("Curve448 errors are the specification's, and their messages say what was expected", async () => {
    const ed = await subtle.generateKey("Ed448", true, ["sign", "verify"]);
    const x = await subtle.generateKey("X448", true, ["deriveBits"]);
    const x25519 = await subtle.generateKey("X25519", true, ["deriveBits"]);
    const cases = [
      [subtle.sign({ name: "Ed448", context: new Uint8Array(1) }, ed.privateKey, new Uint8Array(1)), "NotSupportedError", "a context is not supported (only the empty one), got 1 bytes"],
      [subtle.importKey("raw", new Uint8Array(56), "Ed448", true, ["verify"]), "DataError", "raw: expected an Ed448 public key of 57 bytes, got 56"],
      [subtle.importKey("jwk", { kty: "OKP", crv: "X448", x: "AAAA" }, "X448", true, []), "DataError", "jwk: x: expected 56 bytes for X448, got 3"],
      [subtle.importKey("spki", await subtle.exportKey("spki", ed.publicKey), "X448", true, []), "DataError", "spki: expected a X448 public key for X448, got an Ed448 key"],
      [subtle.importKey("pkcs8", await subtle.exportKey("pkcs8", ed.privateKey), "Ed448", true, ["verify"]), "SyntaxError", 'the usage "verify" is not allowed'],
      [subtle.importKey("jwk", { ...(await subtle.exportKey("jwk", ed.privateKey)), x: (await subtle.exportKey("jwk", (await subtle.generateKey("Ed448", true, ["sign"])).publicKey)).x }, "Ed448", true, ["sign"]),
        "DataError", "jwk: the Ed448 public key is not the private key's"],
      [subtle.deriveBits({ name: "X448", public: x25519.publicKey }, x.privateKey, null), "InvalidAccessError", "the public key is a X25519 key, expected X448"],
      [subtle.deriveBits({ name: "X448", public: x.publicKey }, x.privateKey, 456), "OperationError", "asked for 456 bits, the X448 shared secret has 448"],
      [subtle.sign("Ed448", ed.publicKey, new Uint8Array(1)), "InvalidAccessError", 'do not include "sign"'],
    ];
    for (const [promise, name, message] of cases) {
      const error = await rejection(promise);
      expect(`${error.name}: ${error.message}`).toContain(`${name}: `);
      expect(error.message).toContain(message);
    }
  });

  test("RSA-OAEP encrypts and decrypts with a label and with every hash; another label does not decrypt", async () => {
    const message = encoder.encode("ship 3 widgets to Leeds");
    for (const hash of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) {
      const { publicKey, privateKey } = await subtle.generateKey(rsaParameters("RSA-OAEP", hash), false, ["encrypt", "decrypt"]);
      for (const label of [undefined, new Uint8Array(0), encoder.encode("order 42")]) {
        const ciphertext = await subtle.encrypt({ name: "RSA-OAEP", label }, publicKey, message);
        expect(ciphertext.byteLength).toBe(256);
        expect(new TextDecoder().decode(await subtle.decrypt({ name: "RSA-OAEP", label }, privateKey, ciphertext))).toBe("ship 3 widgets to Leeds");
        const other = label?.byteLength ? undefined : encoder.encode("x");
        const refused = await rejection(subtle.decrypt({ name: "RSA-OAEP", label: other }, privateKey, ciphertext));
        expect(`${refused.name}: ${refused.message}`).toBe("OperationError: decrypt: RSA-OAEP could not decrypt the data (wrong key, hash or label, or a damaged ciphertext)");
      }
      // The longest message a 2048-bit key takes with this hash (RFC 8017 §7.1.1), and one byte more.
      const longest = 256 - 2 * { "SHA-1": 20, "SHA-256": 32, "SHA-384": 48, "SHA-512": 64 }[hash] - 2;
      const sealed = await subtle.encrypt({ name: "RSA-OAEP", label: encoder.encode("l") }, publicKey, new Uint8Array(longest).fill(7));
      expect((await subtle.decrypt({ name: "RSA-OAEP", label: encoder.encode("l") }, privateKey, sealed)).byteLength).toBe(longest);
      expect((await rejection(subtle.encrypt({ name: "RSA-OAEP", label: encoder.encode("l") }, publicKey, new Uint8Array(longest + 1)))).name).toBe("OperationError");
    }
    // Wrapping a key with a label, as the web-platform-tests do.
    const { publicKey, privateKey } = await subtle.generateKey(rsaParameters("RSA-OAEP", "SHA-512"), false, ["wrapKey", "unwrapKey"]);
    const aes = await subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt"]);
    const label = encoder.encode("key 7");
    const wrapped = await subtle.wrapKey("jwk", aes, publicKey, { name: "RSA-OAEP", label });
    const unwrapped = await subtle.unwrapKey("jwk", wrapped, privateKey, { name: "RSA-OAEP", label }, "AES-GCM", true, ["encrypt"]);
    expect(hex(await subtle.exportKey("raw", unwrapped))).toBe(hex(await subtle.exportKey("raw", aes)));
  });

  test("RSA-PSS signs and verifies with any salt length the key allows, and a signature holds only its own", async () => {
    const data = encoder.encode("order 42");
    for (const hash of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) {
      const { publicKey, privateKey } = await subtle.generateKey(rsaParameters("RSA-PSS", hash), false, ["sign", "verify"]);
      const digestLength = { "SHA-1": 20, "SHA-256": 32, "SHA-384": 48, "SHA-512": 64 }[hash];
      // RFC 8017 §9.1.1: at most the encoded message's 256 bytes, less the digest and two.
      const longest = 256 - digestLength - 2;
      for (const saltLength of [0, 1, digestLength, digestLength + 1, longest]) {
        const signature = await subtle.sign({ name: "RSA-PSS", saltLength }, privateKey, data);
        expect(signature.byteLength).toBe(256);
        expect(await subtle.verify({ name: "RSA-PSS", saltLength }, publicKey, signature, data)).toBe(true);
        expect(await subtle.verify({ name: "RSA-PSS", saltLength: saltLength === 0 ? 1 : saltLength - 1 }, publicKey, signature, data)).toBe(false);
        expect(await subtle.verify({ name: "RSA-PSS", saltLength }, publicKey, signature, encoder.encode("order 43"))).toBe(false);
      }
      const tooLong = await rejection(subtle.sign({ name: "RSA-PSS", saltLength: longest + 1 }, privateKey, data));
      expect(tooLong.name).toBe("OperationError");
      expect(tooLong.message).toContain(`RSA-PSS signing with a ${longest + 1}-byte salt failed`);
      expect(await subtle.verify({ name: "RSA-PSS", saltLength: 2 ** 32 - 1 }, publicKey, new Uint8Array(256), data)).toBe(false);
    }
  });
});
