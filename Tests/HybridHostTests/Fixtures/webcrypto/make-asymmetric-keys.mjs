// Writes asymmetric-keys.json beside it: keys node 20's WebCrypto generated and exported, and the
// deterministic outputs node computes over them, for WebCryptoAsymmetricTests to compare against.
// Run once with `node make-asymmetric-keys.mjs`; the JSON is committed, so tests never need node.
import { writeFileSync } from "node:fs";
const { subtle } = globalThis.crypto;

const hex = (buffer) => Buffer.from(buffer).toString("hex");
const message = new TextEncoder().encode("HybridHost signs this order");

async function exported(pair, { raw }) {
    return {
        pkcs8: hex(await subtle.exportKey("pkcs8", pair.privateKey)),
        spki: hex(await subtle.exportKey("spki", pair.publicKey)),
        raw: raw ? hex(await subtle.exportKey("raw", pair.publicKey)) : undefined,
        privateJWK: await subtle.exportKey("jwk", pair.privateKey),
        publicJWK: await subtle.exportKey("jwk", pair.publicKey),
    };
}

const keys = {};
for (const curve of ["P-256", "P-384", "P-521"]) {
    keys[`ECDSA ${curve}`] = await exported(await subtle.generateKey({ name: "ECDSA", namedCurve: curve }, true, ["sign", "verify"]), { raw: true });
    const a = await subtle.generateKey({ name: "ECDH", namedCurve: curve }, true, ["deriveBits"]);
    const b = await subtle.generateKey({ name: "ECDH", namedCurve: curve }, true, ["deriveBits"]);
    keys[`ECDH ${curve}`] = {
        ...(await exported(a, { raw: true })),
        peer: await exported(b, { raw: true }),
        sharedSecret: hex(await subtle.deriveBits({ name: "ECDH", public: b.publicKey }, a.privateKey, null)),
    };
}
keys["Ed25519"] = await exported(await subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]), { raw: true });
{
    const a = await subtle.generateKey({ name: "X25519" }, true, ["deriveBits"]);
    const b = await subtle.generateKey({ name: "X25519" }, true, ["deriveBits"]);
    keys["X25519"] = {
        ...(await exported(a, { raw: true })),
        peer: await exported(b, { raw: true }),
        sharedSecret: hex(await subtle.deriveBits({ name: "X25519", public: b.publicKey }, a.privateKey, null)),
    };
}
for (const name of ["RSA-PSS", "RSASSA-PKCS1-v1_5", "RSA-OAEP"]) {
    const usages = name === "RSA-OAEP" ? ["encrypt", "decrypt"] : ["sign", "verify"];
    const pair = await subtle.generateKey({ name, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, usages);
    keys[name] = await exported(pair, { raw: false });
    if (name === "RSA-PSS") {
        // Randomized: the tests verify node's signatures (salt as long as the hash, all `_RSA` takes).
        keys[name].signatures = {};
        for (const [hash, saltLength] of [["SHA-1", 20], ["SHA-256", 32], ["SHA-384", 48], ["SHA-512", 64]]) {
            const key = await subtle.importKey("pkcs8", await subtle.exportKey("pkcs8", pair.privateKey), { name, hash }, false, ["sign"]);
            keys[name].signatures[hash] = hex(await subtle.sign({ name, saltLength }, key, message));
        }
    }
    if (name === "RSA-OAEP") {
        // Randomized too: the tests decrypt node's ciphertexts.
        keys[name].ciphertexts = {};
        for (const hash of ["SHA-1", "SHA-256"]) {
            const key = await subtle.importKey("spki", await subtle.exportKey("spki", pair.publicKey), { name, hash }, false, ["encrypt"]);
            keys[name].ciphertexts[hash] = hex(await subtle.encrypt({ name }, key, message));
        }
    }
    if (name === "RSASSA-PKCS1-v1_5") {
        keys[name].signatures = {};
        for (const hash of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) {
            const key = await subtle.importKey("pkcs8", await subtle.exportKey("pkcs8", pair.privateKey), { name, hash }, false, ["sign"]);
            keys[name].signatures[hash] = hex(await subtle.sign(name, key, message));
        }
    }
}
keys["Ed25519"].signature = hex(await subtle.sign("Ed25519", (await subtle.importKey("pkcs8", Buffer.from(keys["Ed25519"].pkcs8, "hex"), "Ed25519", false, ["sign"])), message));

writeFileSync(new URL("asymmetric-keys.json", import.meta.url), JSON.stringify({ message: hex(message), keys }, null, 2) + "\n");
