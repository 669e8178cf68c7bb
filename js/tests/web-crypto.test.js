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
      [subtle.generateKey({ name: "X448" }, true, ["deriveBits"]), "NotSupportedError", "X448 is not supported"],
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
