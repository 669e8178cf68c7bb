"use strict";
// The Web Cryptography API (https://w3c.github.io/webcrypto/): the `crypto` global (Crypto),
// getRandomValues, randomUUID, SubtleCrypto and CryptoKey. What is here is the specification's
// frame: Web IDL conversion, algorithm normalization, the checks on keys, usages and formats, JWK
// parsing and serializing, each failure the DOMException the specification names. The primitives
// are native, over swift-crypto and, for what it lacks (Curve448, some RSA paddings), OpenSSL's
// libcrypto (Sources/WebPlatform/WebCrypto*.swift): `native.*` functions take names, numbers and
// byte arrays, and a SubtleCrypto operation's native takes a settle function last, which it calls
// later when it ran off the JS thread (WebCryptoTask.swift).
//
// A CryptoKey holds a native handle (a host object no script can look into); its bytes reach JS
// only through exportKey (and wrapKey), which refuse a key that is not extractable.

const DOMException = internals.get("DOMException");
const { requireArguments, enumerable, toStringTag } = internals.get("webidl");

// ---- Errors ----------------------------------------------------------------------------------------

function domError(name, message) {
  return new DOMException(message, name);
}

// What a native threw or settled with: its name picks the error (a TypeError stays one).
function nativeError(name, message) {
  if (name === "TypeError") return new TypeError(message);
  return new DOMException(message, name);
}

// Calls a native SubtleCrypto operation: its result, at once or when its settle function runs.
function invoke(fn, ...args) {
  return new Promise((resolve, reject) => {
    const settle = (value, name, message) => (value === undefined ? reject(nativeError(name, message)) : resolve(value));
    let result;
    try {
      result = fn(...args, settle);
    } catch (error) {
      reject(nativeError(error.name, error.message));
      return;
    }
    if (result !== undefined) resolve(result);
  });
}

// A Uint8Array from a native becomes the ArrayBuffer SubtleCrypto resolves with (the array spans it).
function arrayBufferOf(bytes) {
  return bytes.buffer;
}

// ---- Web IDL conversions ---------------------------------------------------------------------------

// Brand checks and a BufferSource's parts through the built-ins' own getters (webidl.js).
const { typedArrayTag, typedArrayBuffer, typedArrayByteOffset, typedArrayByteLength, arrayBufferByteLength, arrayBufferSlice, dataViewBuffer, dataViewByteOffset, dataViewByteLength, hasBrand } = internals.get("webidl").buffers;

function isBufferSource(value) {
  if (value === null || typeof value !== "object") return false;
  return typedArrayTag.call(value) !== undefined || hasBrand(arrayBufferByteLength, value) || hasBrand(dataViewBuffer, value);
}

// BufferSource, as the natives read it: an ArrayBuffer or a typed array as it is (the native
// copies its bytes at once), a DataView as a Uint8Array over the same bytes.
function bufferSource(value, what) {
  if (value !== null && typeof value === "object") {
    if (typedArrayTag.call(value) !== undefined) return value;
    if (hasBrand(arrayBufferByteLength, value)) return value;
    if (hasBrand(dataViewBuffer, value)) {
      return new Uint8Array(dataViewBuffer.call(value), dataViewByteOffset.call(value), dataViewByteLength.call(value));
    }
  }
  throw new TypeError(`${what}: expected an ArrayBuffer, a typed array or a DataView`);
}

// A copy of a BufferSource's bytes, as a Uint8Array (for dictionary members, kept until the
// operation runs).
function copyBytes(value, what) {
  const source = bufferSource(value, what);
  if (typedArrayTag.call(source) !== undefined) {
    const offset = typedArrayByteOffset.call(source);
    return new Uint8Array(arrayBufferSlice.call(typedArrayBuffer.call(source), offset, offset + typedArrayByteLength.call(source)));
  }
  return new Uint8Array(arrayBufferSlice.call(source, 0));
}

function byteLengthOf(source) {
  return typedArrayTag.call(source) !== undefined ? typedArrayByteLength.call(source) : arrayBufferByteLength.call(source);
}

// An integer type with [EnforceRange]: a TypeError unless finite and in range, then truncated.
function enforceRange(value, max, what) {
  const x = +value;
  if (!Number.isFinite(x)) throw new TypeError(`${what}: expected a finite number, got ${x}`);
  const integer = Math.trunc(x);
  if (integer < 0 || integer > max) throw new TypeError(`${what}: expected an integer from 0 to ${max}, got ${integer}`);
  return integer === 0 ? 0 : integer;
}

// unsigned long, without [EnforceRange]: modulo 2^32.
function unsignedLong(value) {
  const x = +value;
  if (!Number.isFinite(x)) return 0;
  const integer = Math.trunc(x) % 2 ** 32;
  return integer < 0 ? integer + 2 ** 32 : integer === 0 ? 0 : integer;
}

function isObject(value) {
  return value !== null && (typeof value === "object" || typeof value === "function");
}

// A dictionary argument: undefined and null are an empty one, any other non-object a TypeError.
function dictionaryValue(value, what) {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new TypeError(`${what}: expected an object (a dictionary)`);
  return value;
}

const KEY_USAGES = ["encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey"];
const KEY_FORMATS = ["raw", "spki", "pkcs8", "jwk"];

// sequence<KeyUsage>, duplicates dropped, in the order given.
function convertKeyUsages(value, what) {
  if (!isObject(value) || typeof value[Symbol.iterator] !== "function") {
    throw new TypeError(`${what}: expected a sequence of key usages (${KEY_USAGES.join(", ")})`);
  }
  const usages = [];
  for (const element of value) {
    const usage = `${element}`;
    if (!KEY_USAGES.includes(usage)) {
      throw new TypeError(`${what}: "${usage}" is not a key usage; expected one of ${KEY_USAGES.join(", ")}`);
    }
    if (!usages.includes(usage)) usages.push(usage);
  }
  return usages;
}

function keyFormat(value, what) {
  const format = `${value}`;
  if (!KEY_FORMATS.includes(format)) throw new TypeError(`${what}: "${format}" is not a key format; expected raw, spki, pkcs8 or jwk`);
  return format;
}

// ---- Base64url -------------------------------------------------------------------------------------

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const BASE64URL_VALUES = new Map([...BASE64URL].map((c, i) => [c, i]));

function base64urlEncode(bytes) {
  let text = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    text += BASE64URL[n >> 18] + BASE64URL[(n >> 12) & 63] + BASE64URL[(n >> 6) & 63] + BASE64URL[n & 63];
  }
  if (i + 1 === bytes.length) {
    const n = bytes[i] << 16;
    text += BASE64URL[n >> 18] + BASE64URL[(n >> 12) & 63];
  } else if (i + 2 === bytes.length) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    text += BASE64URL[n >> 18] + BASE64URL[(n >> 12) & 63] + BASE64URL[(n >> 6) & 63];
  }
  return text;
}

// A JWK member's bytes; a DataError names the member when it is not base64url.
function base64urlDecode(text, member) {
  const clean = text.endsWith("==") ? text.slice(0, -2) : text.endsWith("=") ? text.slice(0, -1) : text;
  if (clean.length % 4 === 1) throw domError("DataError", `JWK member ${member}: not base64url (its length is wrong)`);
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let count = 0;
  let at = 0;
  for (const c of clean) {
    const value = BASE64URL_VALUES.get(c);
    if (value === undefined) throw domError("DataError", `JWK member ${member}: not base64url (it holds ${JSON.stringify(c)})`);
    bits = (bits << 6) | value;
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes[at++] = (bits >> count) & 0xff;
    }
  }
  return bytes;
}

// ---- JsonWebKey ------------------------------------------------------------------------------------

const JWK_STRINGS = ["alg", "crv", "d", "dp", "dq", "e", "k", "kty", "n", "p", "q", "qi", "use", "x", "y"];
// The members that carry key material, which the asymmetric natives take.
const JWK_MATERIAL = ["kty", "crv", "x", "y", "d", "n", "e", "p", "q", "dp", "dq", "qi"];

// The JsonWebKey dictionary, converted as Web IDL converts it (members in order, strings as
// DOMStrings, `ext` a boolean, `key_ops` a sequence of strings).
function jsonWebKey(value, what) {
  const source = dictionaryValue(value, what);
  const jwk = {};
  const members = ["alg", "crv", "d", "dp", "dq", "e", "ext", "k", "key_ops", "kty", "n", "oth", "p", "q", "qi", "use", "x", "y"];
  for (const member of members) {
    const raw = source[member];
    if (raw === undefined) continue;
    if (member === "ext") jwk.ext = !!raw;
    else if (member === "key_ops") {
      if (!isObject(raw) || typeof raw[Symbol.iterator] !== "function") throw new TypeError(`${what}: JWK key_ops: expected a sequence of strings`);
      jwk.key_ops = [...raw].map((op) => `${op}`);
    } else if (member === "oth") {
      if (!isObject(raw) || typeof raw[Symbol.iterator] !== "function") throw new TypeError(`${what}: JWK oth: expected a sequence`);
      jwk.oth = [...raw];
    } else jwk[member] = `${raw}`;
  }
  return jwk;
}

// The checks every JWK import makes: kty, use, key_ops and ext (DataErrors).
function checkJwk(jwk, kty, use, usages, extractable, what) {
  if (jwk.kty !== kty) throw domError("DataError", `${what}: expected a JWK whose kty is "${kty}", got ${JSON.stringify(jwk.kty)}`);
  if (usages.length > 0 && jwk.use !== undefined && jwk.use !== use) {
    throw domError("DataError", `${what}: expected a JWK whose use is "${use}", got ${JSON.stringify(jwk.use)}`);
  }
  if (jwk.key_ops !== undefined) {
    if (new Set(jwk.key_ops).size !== jwk.key_ops.length) throw domError("DataError", `${what}: the JWK's key_ops repeats an operation`);
    for (const usage of usages) {
      if (!jwk.key_ops.includes(usage)) throw domError("DataError", `${what}: the JWK's key_ops does not allow "${usage}"`);
    }
  }
  if (jwk.ext === false && extractable) throw domError("DataError", `${what}: the JWK is not extractable (ext is false), but extractable was asked for`);
}

// A JWK parsed from bytes (unwrapKey's "jwk" format).
function parseJwk(bytes, what) {
  let value;
  try {
    value = JSON.parse(new (internals.get("TextDecoder"))().decode(bytes));
  } catch (error) {
    throw domError("DataError", `${what}: the unwrapped key is not JSON: ${error.message}`);
  }
  if (!isObject(value)) throw domError("DataError", `${what}: the unwrapped key is not a JSON object`);
  const jwk = jsonWebKey(value, what);
  if (jwk.kty === undefined) throw domError("DataError", `${what}: the unwrapped JWK has no kty`);
  return jwk;
}

// ---- Algorithm normalization -----------------------------------------------------------------------

// Each dictionary type's members besides `name`, in the order Web IDL reads them (lexicographic),
// with their conversion and whether they are required.
const BUFFER = "BufferSource";
const HASH = "HashAlgorithmIdentifier";
const DICTIONARIES = {
  Algorithm: [],
  AesCbcParams: [["iv", BUFFER, true]],
  AesCtrParams: [["counter", BUFFER, true], ["length", "octet", true]],
  AesGcmParams: [["additionalData", BUFFER, false], ["iv", BUFFER, true], ["tagLength", "octet", false]],
  AesKeyGenParams: [["length", "unsigned short", true]],
  AesDerivedKeyParams: [["length", "unsigned short", true]],
  HmacImportParams: [["hash", HASH, true], ["length", "unsigned long", false]],
  HmacKeyGenParams: [["hash", HASH, true], ["length", "unsigned long", false]],
  HkdfParams: [["hash", HASH, true], ["info", BUFFER, true], ["salt", BUFFER, true]],
  Pbkdf2Params: [["hash", HASH, true], ["iterations", "unsigned long", true], ["salt", BUFFER, true]],
  EcKeyGenParams: [["namedCurve", "DOMString", true]],
  EcKeyImportParams: [["namedCurve", "DOMString", true]],
  EcdsaParams: [["hash", HASH, true]],
  EcdhKeyDeriveParams: [["public", "CryptoKey", true]],
  Ed448Params: [["context", BUFFER, false]],
  RsaHashedKeyGenParams: [["modulusLength", "unsigned long", true], ["publicExponent", "BigInteger", true], ["hash", HASH, true]],
  RsaHashedImportParams: [["hash", HASH, true]],
  RsaPssParams: [["saltLength", "unsigned long", true]],
  RsaOaepParams: [["label", BUFFER, false]],
};

const AES = ["AES-CTR", "AES-CBC", "AES-GCM", "AES-KW"];
const RSA = ["RSASSA-PKCS1-v1_5", "RSA-PSS", "RSA-OAEP"];

function asciiLowercase(text) {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

function table(entries) {
  return new Map(entries.flatMap(([names, type]) => (Array.isArray(names) ? names : [names]).map((name) => [name, type])));
}

// The registered algorithms of each operation and the dictionary type of their parameters.
const SUPPORTED = {
  digest: table([[["SHA-1", "SHA-256", "SHA-384", "SHA-512"], "Algorithm"]]),
  encrypt: table([["RSA-OAEP", "RsaOaepParams"], ["AES-CTR", "AesCtrParams"], ["AES-CBC", "AesCbcParams"], ["AES-GCM", "AesGcmParams"]]),
  sign: table([["RSASSA-PKCS1-v1_5", "Algorithm"], ["RSA-PSS", "RsaPssParams"], ["ECDSA", "EcdsaParams"], ["HMAC", "Algorithm"], ["Ed25519", "Algorithm"],
    ["Ed448", "Ed448Params"]]),
  generateKey: table([[RSA, "RsaHashedKeyGenParams"], [["ECDSA", "ECDH"], "EcKeyGenParams"], [AES, "AesKeyGenParams"],
    ["HMAC", "HmacKeyGenParams"], [["Ed25519", "X25519", "Ed448", "X448"], "Algorithm"]]),
  importKey: table([[RSA, "RsaHashedImportParams"], [["ECDSA", "ECDH"], "EcKeyImportParams"], ["HMAC", "HmacImportParams"],
    [["HKDF", "PBKDF2", "Ed25519", "X25519", "Ed448", "X448", ...AES], "Algorithm"]]),
  deriveBits: table([["HKDF", "HkdfParams"], ["PBKDF2", "Pbkdf2Params"], [["ECDH", "X25519", "X448"], "EcdhKeyDeriveParams"]]),
  "get key length": table([[AES, "AesDerivedKeyParams"], ["HMAC", "HmacImportParams"], [["HKDF", "PBKDF2"], "Algorithm"]]),
  wrapKey: table([["AES-KW", "Algorithm"]]),
};
SUPPORTED.decrypt = SUPPORTED.encrypt;
SUPPORTED.verify = SUPPORTED.sign;
SUPPORTED.unwrapKey = SUPPORTED.wrapKey;
// The same, by each name's ASCII lowercase, as normalization looks names up.
const SUPPORTED_BY_LOWERCASE = Object.fromEntries(Object.entries(SUPPORTED).map(([operation, algorithms]) =>
  [operation, new Map([...algorithms].map(([name, type]) => [asciiLowercase(name), [name, type]]))]));

// The specification's "normalize an algorithm": the registered name whatever the case, and a plain
// object of its converted parameters; a TypeError or NotSupportedError as it says.
function normalizeAlgorithm(algorithm, operation) {
  if (!isObject(algorithm)) return normalizeAlgorithm({ name: `${algorithm}` }, operation);
  const rawName = algorithm.name;
  if (rawName === undefined) throw new TypeError(`${operation}: the algorithm has no name (expected e.g. { name: "AES-GCM", ... })`);
  const name = `${rawName}`;
  const exact = SUPPORTED[operation].get(name);
  const found = exact !== undefined ? [name, exact] : SUPPORTED_BY_LOWERCASE[operation].get(asciiLowercase(name));
  if (found === undefined) throw domError("NotSupportedError", `${operation}: the algorithm ${name} is not supported here`);
  const [registered, type] = found;
  const normalized = { name: registered };
  const what = `${operation}: ${registered}`;
  for (const [member, kind, required] of DICTIONARIES[type]) {
    const value = algorithm[member];
    if (value === undefined) {
      if (required) throw new TypeError(`${what}: the algorithm's ${member} is required (a ${kind})`);
      continue;
    }
    normalized[member] = convertMember(value, kind, `${what}: ${member}`);
  }
  return normalized;
}

function convertMember(value, kind, what) {
  switch (kind) {
    case BUFFER: return copyBytes(value, what);
    case HASH: return normalizeAlgorithm(isObject(value) ? value : `${value}`, "digest");
    case "octet": return enforceRange(value, 0xff, what);
    case "unsigned short": return enforceRange(value, 0xffff, what);
    case "unsigned long": return enforceRange(value, 0xffffffff, what);
    case "DOMString": return `${value}`;
    case "BigInteger":
      if (typedArrayTag.call(value) !== "Uint8Array") throw new TypeError(`${what}: expected a Uint8Array (a BigInteger)`);
      return copyBytes(value, what);
    case "CryptoKey":
      if (!isCryptoKey(value)) throw new TypeError(`${what}: expected a CryptoKey`);
      return value;
  }
  throw new TypeError(`${what}: unknown member type ${kind}`);
}

// ---- CryptoKey -------------------------------------------------------------------------------------

const TOKEN = Symbol("CryptoKey");
let isCryptoKey;
let keyState;

class CryptoKey {
  #type;
  #extractable;
  #algorithm;
  #usages;
  #handle;
  // What `algorithm` and `usages` give: made once, so that each read is the same object.
  #algorithmObject;
  #usagesObject;

  constructor(token, type, extractable, algorithm, usages, handle) {
    if (token !== TOKEN) throw new TypeError("Illegal constructor: CryptoKeys come from SubtleCrypto");
    this.#type = type;
    this.#extractable = extractable;
    this.#algorithm = algorithm;
    this.#usages = usages;
    this.#handle = handle;
  }

  get type() {
    return brandKey(this, "type").#type;
  }

  get extractable() {
    return brandKey(this, "extractable").#extractable;
  }

  get algorithm() {
    const key = brandKey(this, "algorithm");
    if (key.#algorithmObject === undefined) key.#algorithmObject = copyAlgorithm(key.#algorithm);
    return key.#algorithmObject;
  }

  get usages() {
    const key = brandKey(this, "usages");
    if (key.#usagesObject === undefined) key.#usagesObject = [...key.#usages];
    return key.#usagesObject;
  }

  static {
    isCryptoKey = (value) => isObject(value) && #handle in value;
    keyState = (key) => ({ type: key.#type, extractable: key.#extractable, algorithm: key.#algorithm, usages: key.#usages, handle: key.#handle });
  }
}

function brandKey(value, member) {
  if (!isCryptoKey(value)) throw new TypeError(`CryptoKey.prototype.${member}: 'this' is not a CryptoKey`);
  return value;
}

// A KeyAlgorithm as scripts see it: its own copy, so that changing it changes no key.
function copyAlgorithm(algorithm) {
  const copy = {};
  for (const [member, value] of Object.entries(algorithm)) {
    if (value instanceof Uint8Array) copy[member] = new Uint8Array(value);
    else if (isObject(value)) copy[member] = { ...value };
    else copy[member] = value;
  }
  return copy;
}

function makeKey(type, extractable, algorithm, usages, handle) {
  return new CryptoKey(TOKEN, type, extractable, algorithm, usages, handle);
}

function requireKey(value, what) {
  if (!isCryptoKey(value)) throw new TypeError(`${what}: expected a CryptoKey`);
  return keyState(value);
}

function checkUsages(usages, allowed, what) {
  for (const usage of usages) {
    if (!allowed.includes(usage)) {
      throw domError("SyntaxError", `${what}: the usage "${usage}" is not allowed; expected only ${allowed.join(", ") || "none"}`);
    }
  }
}

function intersect(usages, allowed) {
  return usages.filter((usage) => allowed.includes(usage));
}

// ---- The algorithms --------------------------------------------------------------------------------

// Each registered algorithm: what its key generation, import, export and operations do. An entry
// missing here is an operation the algorithm does not have (a NotSupportedError where the frame
// reaches it, as for exportKey).

const HASH_BLOCK_BITS = { "SHA-1": 512, "SHA-256": 512, "SHA-384": 1024, "SHA-512": 1024 };
const HMAC_JWK_ALG = { "SHA-1": "HS1", "SHA-256": "HS256", "SHA-384": "HS384", "SHA-512": "HS512" };

function secretJwk(key, extra) {
  return { key_ops: [...key.usages], ext: key.extractable, kty: "oct", k: base64urlEncode(native.exportSecret(key.handle)), ...extra };
}

// The bytes of a secret key import: `raw` as given, `jwk`'s k after the common checks.
function secretKeyData(format, keyData, what) {
  if (format === "raw") return keyData;
  const k = keyData.k;
  if (k === undefined) throw domError("DataError", `${what}: the JWK has no k (the key's bytes)`);
  return base64urlDecode(k, "k");
}

const HMAC = {
  usages: ["sign", "verify"],
  generateKey(algorithm, extractable, usages) {
    checkUsages(usages, this.usages, "generateKey: HMAC");
    let length = algorithm.length;
    if (length === undefined) length = HASH_BLOCK_BITS[algorithm.hash.name];
    else if (length === 0) throw domError("OperationError", "generateKey: HMAC: expected a non-zero length");
    const handle = native.generateSecret(Math.ceil(length / 8));
    return makeKey("secret", extractable, { name: "HMAC", length, hash: { name: algorithm.hash.name } }, usages, handle);
  },
  importKey(format, keyData, algorithm, extractable, usages) {
    const what = "importKey: HMAC";
    checkUsages(usages, this.usages, what);
    if (format !== "raw" && format !== "jwk") throw domError("NotSupportedError", `${what}: expected the raw or jwk format, got ${format}`);
    const hash = algorithm.hash.name;
    if (format === "jwk") {
      checkJwk(keyData, "oct", "sig", usages, extractable, what);
      if (keyData.alg !== undefined && keyData.alg !== HMAC_JWK_ALG[hash]) {
        throw domError("DataError", `${what}: the JWK's alg is ${keyData.alg}, expected ${HMAC_JWK_ALG[hash]} for ${hash}`);
      }
    }
    const data = secretKeyData(format, keyData, what);
    let length = byteLengthOf(data) * 8;
    if (length === 0) throw domError("DataError", `${what}: the key is empty`);
    if (algorithm.length !== undefined) {
      if (algorithm.length > length || algorithm.length <= length - 8) {
        throw domError("DataError", `${what}: a length of ${algorithm.length} bits does not fit a key of ${length / 8} bytes`);
      }
      length = algorithm.length;
    }
    return makeKey("secret", extractable, { name: "HMAC", length, hash: { name: hash } }, usages, native.importSecret(data));
  },
  exportKey(format, key) {
    if (format === "raw") return arrayBufferOf(native.exportSecret(key.handle));
    if (format === "jwk") return secretJwk(key, { alg: HMAC_JWK_ALG[key.algorithm.hash.name] });
    throw domError("NotSupportedError", `exportKey: HMAC: expected the raw or jwk format, got ${format}`);
  },
  sign(algorithm, key, data) {
    return invoke(native.hmacSign, key.algorithm.hash.name, key.handle, data).then(arrayBufferOf);
  },
  verify(algorithm, key, signature, data) {
    return invoke(native.hmacVerify, key.algorithm.hash.name, key.handle, signature, data);
  },
  keyLength(algorithm) {
    if (algorithm.length === undefined) return HASH_BLOCK_BITS[algorithm.hash.name];
    if (algorithm.length === 0) throw new TypeError("deriveKey: HMAC: expected a non-zero length");
    return algorithm.length;
  },
};

function aesAlgorithm(name) {
  const suffix = name.slice(4);
  const usages = name === "AES-KW" ? ["wrapKey", "unwrapKey"] : ["encrypt", "decrypt", "wrapKey", "unwrapKey"];
  const jwkAlg = (bits) => `A${bits}${suffix}`;
  const entry = {
    usages,
    generateKey(algorithm, extractable, keyUsages) {
      checkUsages(keyUsages, usages, `generateKey: ${name}`);
      if (![128, 192, 256].includes(algorithm.length)) {
        throw domError("OperationError", `generateKey: ${name}: expected a length of 128, 192 or 256, got ${algorithm.length}`);
      }
      return makeKey("secret", extractable, { name, length: algorithm.length }, keyUsages, native.generateSecret(algorithm.length / 8));
    },
    importKey(format, keyData, algorithm, extractable, keyUsages) {
      const what = `importKey: ${name}`;
      checkUsages(keyUsages, usages, what);
      if (format !== "raw" && format !== "jwk") throw domError("NotSupportedError", `${what}: expected the raw or jwk format, got ${format}`);
      if (format === "jwk") checkJwk(keyData, "oct", "enc", keyUsages, extractable, what);
      const data = secretKeyData(format, keyData, what);
      const length = byteLengthOf(data) * 8;
      if (![128, 192, 256].includes(length)) throw domError("DataError", `${what}: expected a key of 128, 192 or 256 bits, got ${length}`);
      if (format === "jwk" && keyData.alg !== undefined && keyData.alg !== jwkAlg(length)) {
        throw domError("DataError", `${what}: the JWK's alg is ${keyData.alg}, expected ${jwkAlg(length)}`);
      }
      return makeKey("secret", extractable, { name, length }, keyUsages, native.importSecret(data));
    },
    exportKey(format, key) {
      if (format === "raw") return arrayBufferOf(native.exportSecret(key.handle));
      if (format === "jwk") return secretJwk(key, { alg: jwkAlg(key.algorithm.length) });
      throw domError("NotSupportedError", `exportKey: ${name}: expected the raw or jwk format, got ${format}`);
    },
    keyLength(algorithm) {
      if (![128, 192, 256].includes(algorithm.length)) {
        throw domError("OperationError", `deriveKey: ${name}: expected a length of 128, 192 or 256, got ${algorithm.length}`);
      }
      return algorithm.length;
    },
  };
  if (name === "AES-KW") {
    entry.wrapKey = (algorithm, key, bytes) => invoke(native.aesWrap, key.handle, bytes).then(arrayBufferOf);
    entry.unwrapKey = (algorithm, key, bytes) => invoke(native.aesUnwrap, key.handle, bytes).then(arrayBufferOf);
  } else {
    const parameters = (algorithm) => {
      if (name === "AES-GCM") return [algorithm.iv, algorithm.additionalData, algorithm.tagLength ?? 128];
      if (name === "AES-CTR") return [algorithm.counter, undefined, algorithm.length];
      return [algorithm.iv, undefined, 0];
    };
    entry.encrypt = (algorithm, key, data) => invoke(native.aesEncrypt, name, key.handle, data, ...parameters(algorithm)).then(arrayBufferOf);
    entry.decrypt = (algorithm, key, data) => invoke(native.aesDecrypt, name, key.handle, data, ...parameters(algorithm)).then(arrayBufferOf);
  }
  return entry;
}

// PBKDF2 and HKDF: a secret key that only derives.
function kdfAlgorithm(name) {
  return {
    importKey(format, keyData, algorithm, extractable, usages) {
      const what = `importKey: ${name}`;
      if (format !== "raw") throw domError("NotSupportedError", `${what}: expected the raw format, got ${format}`);
      checkUsages(usages, ["deriveKey", "deriveBits"], what);
      if (extractable) throw domError("SyntaxError", `${what}: a ${name} key cannot be extractable`);
      return makeKey("secret", false, { name }, usages, native.importSecret(keyData));
    },
    deriveBits(algorithm, key, length) {
      if (length === null) throw domError("OperationError", `deriveBits: ${name}: expected a length, got null`);
      if (length === 0) throw domError("OperationError", `deriveBits: ${name}: expected a non-zero length`);
      if (name === "PBKDF2") {
        return invoke(native.pbkdf2, key.handle, algorithm.hash.name, algorithm.salt, algorithm.iterations, length).then(arrayBufferOf);
      }
      return invoke(native.hkdf, key.handle, algorithm.hash.name, algorithm.salt, algorithm.info, length).then(arrayBufferOf);
    },
    keyLength() {
      return null;
    },
  };
}

// ---- Asymmetric algorithms ---------------------------------------------------------------------------
// The key material is native (WebCryptoAsymmetric*.swift); here are the usages, the key types, the
// algorithm objects and the JWK checks.

const CURVES = ["P-256", "P-384", "P-521"];
const ECDSA_JWK_ALG = { ES256: "P-256", ES384: "P-384", ES512: "P-521" };
const RSA_JWK_ALG = {
  "RSASSA-PKCS1-v1_5": { "SHA-1": "RS1", "SHA-256": "RS256", "SHA-384": "RS384", "SHA-512": "RS512" },
  "RSA-PSS": { "SHA-1": "PS1", "SHA-256": "PS256", "SHA-384": "PS384", "SHA-512": "PS512" },
  "RSA-OAEP": { "SHA-1": "RSA-OAEP", "SHA-256": "RSA-OAEP-256", "SHA-384": "RSA-OAEP-384", "SHA-512": "RSA-OAEP-512" },
};

// The JWK's material members, for the natives.
function jwkMaterial(jwk) {
  const material = {};
  for (const member of JWK_MATERIAL) if (jwk[member] !== undefined) material[member] = jwk[member];
  return material;
}

// One asymmetric algorithm. `privateUsages`/`publicUsages`: what each half may be used for;
// `describe(algorithm, info)`: the key's KeyAlgorithm; `kty`/`use`: its JWKs'; `checkJwkAlg`
// checks a JWK's alg; `curve(algorithm)`: the namedCurve the natives take.
function asymmetricAlgorithm(name, options) {
  const { privateUsages, publicUsages, kty, use, formats } = options;
  const allUsages = [...privateUsages, ...publicUsages];
  const curveOf = (algorithm) => algorithm.namedCurve;
  const wrap = (handle, extractable, algorithm, usages) => {
    const info = native.asymmetricInfo(handle);
    const type = info.isPrivate ? "private" : "public";
    return makeKey(type, extractable, options.describe(algorithm, info), usages, handle);
  };
  return {
    generateKey(algorithm, extractable, usages) {
      const what = `generateKey: ${name}`;
      checkUsages(usages, allUsages, what);
      if (options.curves !== undefined && !options.curves.includes(algorithm.namedCurve)) {
        throw domError("NotSupportedError", `${what}: expected a namedCurve of ${options.curves.join(", ")}, got ${algorithm.namedCurve}`);
      }
      return invoke(native.asymmetricGenerate, name, curveOf(algorithm), algorithm.modulusLength, algorithm.publicExponent).then((pair) => {
        const privateKey = wrap(pair.privateKey, extractable, algorithm, intersect(usages, privateUsages));
        const publicKey = wrap(pair.publicKey, true, algorithm, intersect(usages, publicUsages));
        return { privateKey, publicKey };
      });
    },
    importKey(format, keyData, algorithm, extractable, usages) {
      const what = `importKey: ${name}`;
      if (!formats.includes(format)) throw domError("NotSupportedError", `${what}: expected the ${formats.join(", ")} format, got ${format}`);
      if (options.curves !== undefined && !options.curves.includes(algorithm.namedCurve)) {
        throw domError("NotSupportedError", `${what}: expected a namedCurve of ${options.curves.join(", ")}, got ${algorithm.namedCurve}`);
      }
      const isPrivate = format === "pkcs8" || (format === "jwk" && keyData.d !== undefined);
      checkUsages(usages, isPrivate ? privateUsages : publicUsages, what);
      let handle;
      if (format === "jwk") {
        checkJwk(keyData, kty, use, usages, extractable, what);
        if (options.checkJwk) options.checkJwk(keyData, algorithm, what);
        handle = callNative(native.asymmetricImportJWK, name, jwkMaterial(keyData), curveOf(algorithm));
      } else {
        handle = callNative(native.asymmetricImport, name, format, keyData, curveOf(algorithm));
      }
      return wrap(handle, extractable, algorithm, usages);
    },
    exportKey(format, key) {
      const what = `exportKey: ${name}`;
      if (!formats.includes(format)) throw domError("NotSupportedError", `${what}: expected the ${formats.join(", ")} format, got ${format}`);
      if (format === "jwk") {
        const jwk = { key_ops: [...key.usages], ext: key.extractable, ...callNative(native.asymmetricExportJWK, key.handle) };
        const alg = options.jwkAlg?.(key.algorithm);
        if (alg !== undefined) jwk.alg = alg;
        return jwk;
      }
      const wanted = format === "pkcs8" ? "private" : "public";
      if (key.type !== wanted) throw domError("InvalidAccessError", `${what}: the ${format} format holds a ${wanted} key, and this key is ${key.type}`);
      return arrayBufferOf(callNative(native.asymmetricExport, key.handle, format));
    },
    ...options.operations,
  };
}

// A synchronous native call whose error becomes the DOMException it names.
function callNative(fn, ...args) {
  try {
    return fn(...args);
  } catch (error) {
    throw nativeError(error.name, error.message);
  }
}

function requireType(key, type, what) {
  if (key.type !== type) throw domError("InvalidAccessError", `${what}: expected a ${type} key, got a ${key.type} key`);
}

function signature(name, hashOf, saltOf) {
  return {
    sign(algorithm, key, data) {
      requireType(key, "private", `sign: ${name}`);
      return invoke(native.asymmetricSign, key.handle, hashOf(algorithm, key), saltOf(algorithm), data).then(arrayBufferOf);
    },
    verify(algorithm, key, signatureBytes, data) {
      requireType(key, "public", `verify: ${name}`);
      return invoke(native.asymmetricVerify, key.handle, hashOf(algorithm, key), saltOf(algorithm), signatureBytes, data);
    },
  };
}

// Ed448 with Ed448Params: the native (OpenSSL 3.0) signs with the empty context only, so another
// is refused rather than ignored, as node 20 refuses it.
function ed448Signature() {
  const { sign, verify } = signature("Ed448", () => undefined, () => undefined);
  const checkContext = (algorithm, what) => {
    if (algorithm.context !== undefined && algorithm.context.byteLength > 0) {
      throw domError("NotSupportedError", `${what}: Ed448: a context is not supported (only the empty one), got ${algorithm.context.byteLength} bytes`);
    }
  };
  return {
    sign(algorithm, key, data) {
      checkContext(algorithm, "sign");
      return sign(algorithm, key, data);
    },
    verify(algorithm, key, signatureBytes, data) {
      checkContext(algorithm, "verify");
      return verify(algorithm, key, signatureBytes, data);
    },
  };
}

function agreement(name) {
  return {
    deriveBits(algorithm, key, length) {
      const what = `deriveBits: ${name}`;
      requireType(key, "private", what);
      const publicKey = keyState(algorithm.public);
      if (publicKey.type !== "public") throw domError("InvalidAccessError", `${what}: the public member is a ${publicKey.type} key, expected a public key`);
      if (publicKey.algorithm.name !== key.algorithm.name) {
        throw domError("InvalidAccessError", `${what}: the public key is a ${publicKey.algorithm.name} key, expected ${key.algorithm.name}`);
      }
      if (publicKey.algorithm.namedCurve !== key.algorithm.namedCurve) {
        throw domError("InvalidAccessError", `${what}: the public key is on ${publicKey.algorithm.namedCurve}, the private key on ${key.algorithm.namedCurve}`);
      }
      return invoke(native.asymmetricDeriveBits, key.handle, publicKey.handle, length).then(arrayBufferOf);
    },
  };
}

const ecDescribe = (algorithm, info) => ({ name: algorithm.name, namedCurve: info.namedCurve ?? algorithm.namedCurve });
const okpDescribe = (algorithm) => ({ name: algorithm.name });
const rsaDescribe = (algorithm, info) => ({
  name: algorithm.name,
  modulusLength: info.modulusLength,
  publicExponent: new Uint8Array(info.publicExponent),
  hash: { name: algorithm.hash.name },
});
const checkCrv = (expected) => (jwk, algorithm, what) => {
  const crv = expected ?? algorithm.namedCurve;
  if (jwk.crv !== crv) throw domError("DataError", `${what}: the JWK's crv is ${JSON.stringify(jwk.crv)}, expected ${crv}`);
};
const checkRsaAlg = (name) => (jwk, algorithm, what) => {
  const expected = RSA_JWK_ALG[name][algorithm.hash.name];
  if (jwk.alg !== undefined && jwk.alg !== expected) throw domError("DataError", `${what}: the JWK's alg is ${jwk.alg}, expected ${expected}`);
};

const ASYMMETRIC_FORMATS = ["spki", "pkcs8", "jwk", "raw"];
const RSA_FORMATS = ["spki", "pkcs8", "jwk"];

function rsaAlgorithm(name, privateUsages, publicUsages, operations) {
  return asymmetricAlgorithm(name, {
    privateUsages, publicUsages, kty: "RSA", use: name === "RSA-OAEP" ? "enc" : "sig", formats: RSA_FORMATS,
    describe: rsaDescribe, checkJwk: checkRsaAlg(name), jwkAlg: (algorithm) => RSA_JWK_ALG[name][algorithm.hash.name], operations,
  });
}

const ALGORITHMS = {
  HMAC,
  "AES-CTR": aesAlgorithm("AES-CTR"),
  "AES-CBC": aesAlgorithm("AES-CBC"),
  "AES-GCM": aesAlgorithm("AES-GCM"),
  "AES-KW": aesAlgorithm("AES-KW"),
  PBKDF2: kdfAlgorithm("PBKDF2"),
  HKDF: kdfAlgorithm("HKDF"),
  ECDSA: asymmetricAlgorithm("ECDSA", {
    privateUsages: ["sign"], publicUsages: ["verify"], kty: "EC", use: "sig", formats: ASYMMETRIC_FORMATS, curves: CURVES,
    describe: ecDescribe,
    checkJwk(jwk, algorithm, what) {
      checkCrv()(jwk, algorithm, what);
      const curve = ECDSA_JWK_ALG[jwk.alg];
      if (jwk.alg !== undefined && curve !== undefined && curve !== algorithm.namedCurve) {
        throw domError("DataError", `${what}: the JWK's alg is ${jwk.alg}, which is not for ${algorithm.namedCurve}`);
      }
    },
    operations: signature("ECDSA", (algorithm) => algorithm.hash.name, () => undefined),
  }),
  ECDH: asymmetricAlgorithm("ECDH", {
    privateUsages: ["deriveKey", "deriveBits"], publicUsages: [], kty: "EC", use: "enc", formats: ASYMMETRIC_FORMATS, curves: CURVES,
    describe: ecDescribe, checkJwk: checkCrv(), operations: agreement("ECDH"),
  }),
  Ed25519: asymmetricAlgorithm("Ed25519", {
    privateUsages: ["sign"], publicUsages: ["verify"], kty: "OKP", use: "sig", formats: ASYMMETRIC_FORMATS,
    describe: okpDescribe, checkJwk: checkCrv("Ed25519"),
    operations: signature("Ed25519", () => undefined, () => undefined),
  }),
  X25519: asymmetricAlgorithm("X25519", {
    privateUsages: ["deriveKey", "deriveBits"], publicUsages: [], kty: "OKP", use: "enc", formats: ASYMMETRIC_FORMATS,
    describe: okpDescribe, checkJwk: checkCrv("X25519"), operations: agreement("X25519"),
  }),
  Ed448: asymmetricAlgorithm("Ed448", {
    privateUsages: ["sign"], publicUsages: ["verify"], kty: "OKP", use: "sig", formats: ASYMMETRIC_FORMATS,
    describe: okpDescribe, checkJwk: checkCrv("Ed448"), operations: ed448Signature(),
  }),
  X448: asymmetricAlgorithm("X448", {
    privateUsages: ["deriveKey", "deriveBits"], publicUsages: [], kty: "OKP", use: "enc", formats: ASYMMETRIC_FORMATS,
    describe: okpDescribe, checkJwk: checkCrv("X448"), operations: agreement("X448"),
  }),
  "RSASSA-PKCS1-v1_5": rsaAlgorithm("RSASSA-PKCS1-v1_5", ["sign"], ["verify"],
    signature("RSASSA-PKCS1-v1_5", (algorithm, key) => key.algorithm.hash.name, () => undefined)),
  "RSA-PSS": rsaAlgorithm("RSA-PSS", ["sign"], ["verify"],
    signature("RSA-PSS", (algorithm, key) => key.algorithm.hash.name, (algorithm) => algorithm.saltLength)),
  "RSA-OAEP": rsaAlgorithm("RSA-OAEP", ["decrypt", "unwrapKey"], ["encrypt", "wrapKey"], {
    encrypt(algorithm, key, data) {
      requireType(key, "public", "encrypt: RSA-OAEP");
      return invoke(native.asymmetricEncrypt, key.handle, key.algorithm.hash.name, algorithm.label, data).then(arrayBufferOf);
    },
    decrypt(algorithm, key, data) {
      requireType(key, "private", "decrypt: RSA-OAEP");
      return invoke(native.asymmetricDecrypt, key.handle, key.algorithm.hash.name, algorithm.label, data).then(arrayBufferOf);
    },
  }),
};

// ---- SubtleCrypto ----------------------------------------------------------------------------------

let subtleToken = false;
let isSubtleCrypto;

// The key checks each operation makes: the algorithm is the key's, and the key allows the usage.
function checkKeyFor(key, algorithm, usage, what) {
  if (algorithm.name !== key.algorithm.name) {
    throw domError("InvalidAccessError", `${what}: the key is a ${key.algorithm.name} key, not a ${algorithm.name} key`);
  }
  if (!key.usages.includes(usage)) {
    throw domError("InvalidAccessError", `${what}: the key's usages (${key.usages.join(", ") || "none"}) do not include "${usage}"`);
  }
}

// A new key's final check: a secret or private key needs a usage.
function checkNotEmpty(result, what) {
  const key = isCryptoKey(result) ? keyState(result) : keyState(result.privateKey);
  if ((key.type === "secret" || key.type === "private") && key.usages.length === 0) {
    throw domError("SyntaxError", `${what}: a ${key.type} key needs at least one usage`);
  }
  return result;
}

// The key data of importKey: a JsonWebKey for "jwk", a BufferSource for the rest.
function keyDataFor(format, keyData, what) {
  if (format === "jwk") {
    if (isBufferSource(keyData) || !isObject(keyData)) throw new TypeError(`${what}: the jwk format takes a JsonWebKey object`);
    return jsonWebKey(keyData, what);
  }
  if (!isBufferSource(keyData)) throw new TypeError(`${what}: the ${format} format takes an ArrayBuffer, a typed array or a DataView`);
  return copyBytes(keyData, what);
}

async function importKeyInternal(format, keyData, algorithm, extractable, usages, what) {
  const entry = ALGORITHMS[algorithm.name];
  return checkNotEmpty(await entry.importKey(format, keyData, algorithm, extractable, usages), what);
}

async function exportKeyInternal(format, key, what) {
  const entry = ALGORITHMS[key.algorithm.name];
  if (entry.exportKey === undefined) throw domError("NotSupportedError", `${what}: ${key.algorithm.name} keys cannot be exported`);
  if (!key.extractable) throw domError("InvalidAccessError", `${what}: the key is not extractable`);
  return entry.exportKey(format, key);
}

class SubtleCrypto {
  constructor() {
    if (!subtleToken) throw new TypeError("Illegal constructor: use crypto.subtle");
  }

  async encrypt(algorithm, key, data) {
    brandSubtle(this, "encrypt");
    requireArguments(arguments.length, 3, "SubtleCrypto.encrypt");
    return cipher("encrypt", algorithm, key, data);
  }

  async decrypt(algorithm, key, data) {
    brandSubtle(this, "decrypt");
    requireArguments(arguments.length, 3, "SubtleCrypto.decrypt");
    return cipher("decrypt", algorithm, key, data);
  }

  async sign(algorithm, key, data) {
    brandSubtle(this, "sign");
    requireArguments(arguments.length, 3, "SubtleCrypto.sign");
    const state = requireKey(key, "sign");
    const bytes = bufferSource(data, "sign: data");
    const normalized = normalizeAlgorithm(algorithm, "sign");
    checkKeyFor(state, normalized, "sign", "sign");
    return ALGORITHMS[normalized.name].sign(normalized, state, bytes);
  }

  async verify(algorithm, key, signature, data) {
    brandSubtle(this, "verify");
    requireArguments(arguments.length, 4, "SubtleCrypto.verify");
    const state = requireKey(key, "verify");
    const signatureBytes = copyBytes(signature, "verify: signature");
    const bytes = bufferSource(data, "verify: data");
    const normalized = normalizeAlgorithm(algorithm, "verify");
    checkKeyFor(state, normalized, "verify", "verify");
    return ALGORITHMS[normalized.name].verify(normalized, state, signatureBytes, bytes);
  }

  async digest(algorithm, data) {
    brandSubtle(this, "digest");
    requireArguments(arguments.length, 2, "SubtleCrypto.digest");
    const bytes = bufferSource(data, "digest: data");
    const normalized = normalizeAlgorithm(algorithm, "digest");
    return arrayBufferOf(await invoke(native.digest, normalized.name, bytes));
  }

  async generateKey(algorithm, extractable, keyUsages) {
    brandSubtle(this, "generateKey");
    requireArguments(arguments.length, 3, "SubtleCrypto.generateKey");
    const usages = convertKeyUsages(keyUsages, "generateKey: keyUsages");
    const normalized = normalizeAlgorithm(algorithm, "generateKey");
    const result = await ALGORITHMS[normalized.name].generateKey(normalized, !!extractable, usages);
    return checkNotEmpty(result, "generateKey");
  }

  async deriveKey(algorithm, baseKey, derivedKeyType, extractable, keyUsages) {
    brandSubtle(this, "deriveKey");
    requireArguments(arguments.length, 5, "SubtleCrypto.deriveKey");
    const key = requireKey(baseKey, "deriveKey: baseKey");
    const usages = convertKeyUsages(keyUsages, "deriveKey: keyUsages");
    const normalized = normalizeAlgorithm(algorithm, "deriveBits");
    const importAlgorithm = normalizeAlgorithm(derivedKeyType, "importKey");
    const lengthAlgorithm = normalizeAlgorithm(derivedKeyType, "get key length");
    checkKeyFor(key, normalized, "deriveKey", "deriveKey");
    const length = ALGORITHMS[lengthAlgorithm.name].keyLength(lengthAlgorithm);
    const secret = await ALGORITHMS[normalized.name].deriveBits(normalized, key, length);
    return importKeyInternal("raw", new Uint8Array(secret), importAlgorithm, !!extractable, usages, "deriveKey");
  }

  async deriveBits(algorithm, baseKey, length) {
    brandSubtle(this, "deriveBits");
    requireArguments(arguments.length, 3, "SubtleCrypto.deriveBits");
    const key = requireKey(baseKey, "deriveBits: baseKey");
    const bits = length === null || length === undefined ? null : unsignedLong(length);
    const normalized = normalizeAlgorithm(algorithm, "deriveBits");
    checkKeyFor(key, normalized, "deriveBits", "deriveBits");
    return ALGORITHMS[normalized.name].deriveBits(normalized, key, bits);
  }

  async importKey(format, keyData, algorithm, extractable, keyUsages) {
    brandSubtle(this, "importKey");
    requireArguments(arguments.length, 5, "SubtleCrypto.importKey");
    const what = "importKey";
    const keyFormatName = keyFormat(format, `${what}: format`);
    const data = keyDataFor(keyFormatName, keyData, what);
    const usages = convertKeyUsages(keyUsages, `${what}: keyUsages`);
    const normalized = normalizeAlgorithm(algorithm, "importKey");
    return importKeyInternal(keyFormatName, data, normalized, !!extractable, usages, what);
  }

  async exportKey(format, key) {
    brandSubtle(this, "exportKey");
    requireArguments(arguments.length, 2, "SubtleCrypto.exportKey");
    const keyFormatName = keyFormat(format, "exportKey: format");
    return exportKeyInternal(keyFormatName, requireKey(key, "exportKey"), "exportKey");
  }

  async wrapKey(format, key, wrappingKey, wrapAlgorithm) {
    brandSubtle(this, "wrapKey");
    requireArguments(arguments.length, 4, "SubtleCrypto.wrapKey");
    const what = "wrapKey";
    const keyFormatName = keyFormat(format, `${what}: format`);
    const state = requireKey(key, `${what}: key`);
    const wrapping = requireKey(wrappingKey, `${what}: wrappingKey`);
    const [normalized, operation] = normalizeEither(wrapAlgorithm, "wrapKey", "encrypt");
    checkKeyFor(wrapping, normalized, "wrapKey", what);
    const exported = await exportKeyInternal(keyFormatName, state, what);
    const bytes = keyFormatName === "jwk" ? new (internals.get("TextEncoder"))().encode(JSON.stringify(exported)) : new Uint8Array(exported);
    return ALGORITHMS[normalized.name][operation](normalized, wrapping, bytes);
  }

  async unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable, keyUsages) {
    brandSubtle(this, "unwrapKey");
    requireArguments(arguments.length, 7, "SubtleCrypto.unwrapKey");
    const what = "unwrapKey";
    const keyFormatName = keyFormat(format, `${what}: format`);
    const wrapped = copyBytes(wrappedKey, `${what}: wrappedKey`);
    const unwrapping = requireKey(unwrappingKey, `${what}: unwrappingKey`);
    const usages = convertKeyUsages(keyUsages, `${what}: keyUsages`);
    const [normalized, operation] = normalizeEither(unwrapAlgorithm, "unwrapKey", "decrypt");
    const importAlgorithm = normalizeAlgorithm(unwrappedKeyAlgorithm, "importKey");
    checkKeyFor(unwrapping, normalized, "unwrapKey", what);
    const bytes = new Uint8Array(await ALGORITHMS[normalized.name][operation](normalized, unwrapping, wrapped));
    const keyData = keyFormatName === "jwk" ? parseJwk(bytes, what) : bytes;
    return importKeyInternal(keyFormatName, keyData, importAlgorithm, !!extractable, usages, what);
  }

  static {
    isSubtleCrypto = (value) => isObject(value) && Object.getPrototypeOf(value) === SubtleCrypto.prototype && subtleInstances.has(value);
  }
}

const subtleInstances = new WeakSet();

function brandSubtle(value, member) {
  if (!isSubtleCrypto(value)) throw new TypeError(`SubtleCrypto.prototype.${member}: 'this' is not a SubtleCrypto`);
}

async function cipher(operation, algorithm, key, data) {
  const state = requireKey(key, operation);
  const bytes = bufferSource(data, `${operation}: data`);
  const normalized = normalizeAlgorithm(algorithm, operation);
  checkKeyFor(state, normalized, operation, operation);
  return ALGORITHMS[normalized.name][operation](normalized, state, bytes);
}

// wrapKey's and unwrapKey's algorithm: a key wrapping one, else an encryption one.
function normalizeEither(algorithm, first, second) {
  try {
    return [normalizeAlgorithm(algorithm, first), first];
  } catch (error) {
    if (!(error instanceof DOMException) || error.name !== "NotSupportedError") throw error;
    return [normalizeAlgorithm(algorithm, second), second];
  }
}

// ---- Crypto ----------------------------------------------------------------------------------------

const INTEGER_ARRAYS = new Set(["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
  "BigInt64Array", "BigUint64Array"]);
let cryptoToken = false;
let theCrypto;
let subtle;

class Crypto {
  constructor() {
    if (!cryptoToken) throw new TypeError("Illegal constructor: use the global crypto");
  }

  get subtle() {
    brandCrypto(this, "subtle");
    return subtle;
  }

  getRandomValues(array) {
    brandCrypto(this, "getRandomValues");
    requireArguments(arguments.length, 1, "Crypto.getRandomValues");
    const tag = typedArrayTag.call(array);
    if (!INTEGER_ARRAYS.has(tag)) {
      if (tag !== undefined || hasBrand(dataViewBuffer, array)) {
        throw domError("TypeMismatchError", `Crypto.getRandomValues: expected an integer typed array, got a ${tag ?? "DataView"}`);
      }
      throw new TypeError("Crypto.getRandomValues: expected an integer typed array (an ArrayBufferView)");
    }
    const length = typedArrayByteLength.call(array);
    if (length > 65536) {
      throw domError("QuotaExceededError", `Crypto.getRandomValues: asked for ${length} bytes, more than the 65536 allowed at once`);
    }
    native.getRandomValues(array);
    return array;
  }

  randomUUID() {
    brandCrypto(this, "randomUUID");
    return native.randomUUID();
  }
}

function brandCrypto(value, member) {
  if (value !== theCrypto) throw new TypeError(`Crypto.prototype.${member}: 'this' is not a Crypto`);
}

cryptoToken = true;
theCrypto = new Crypto();
cryptoToken = false;
subtleToken = true;
subtle = new SubtleCrypto();
subtleToken = false;
subtleInstances.add(subtle);

enumerable(Crypto.prototype, ["subtle", "getRandomValues", "randomUUID"]);
toStringTag(Crypto.prototype, "Crypto");
enumerable(SubtleCrypto.prototype, ["encrypt", "decrypt", "sign", "verify", "digest", "generateKey", "deriveKey", "deriveBits",
  "importKey", "exportKey", "wrapKey", "unwrapKey"]);
toStringTag(SubtleCrypto.prototype, "SubtleCrypto");
enumerable(CryptoKey.prototype, ["type", "extractable", "algorithm", "usages"]);
toStringTag(CryptoKey.prototype, "CryptoKey");

define("Crypto", Crypto);
define("SubtleCrypto", SubtleCrypto);
define("CryptoKey", CryptoKey);
define("crypto", theCrypto);

// A CryptoKey is serializable: its copy shares the native handle, which never changes.
internals.platformObjects.register(isCryptoKey, (key) => {
  const state = keyState(key);
  return makeKey(state.type, state.extractable, state.algorithm, [...state.usages], state.handle);
});
