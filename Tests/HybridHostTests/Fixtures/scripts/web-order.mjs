// An H5 module's day: sign an order with WebCrypto ECDSA, gzip a report through CompressionStream,
// build a multipart FormData with the report as a file. WebAcceptanceTests runs it under `hybrid run`
// and under node and compares what they print.
const order = { id: 42, items: [{ sku: "widget", quantity: 3, price: 9.5 }], total: 28.5, currency: "EUR" };
const body = new TextEncoder().encode(JSON.stringify(order));
const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

const { privateKey, publicKey } = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, privateKey, body);
console.log("signature", signature.byteLength, "bytes, verifies:", await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, publicKey, signature, body));
const spki = await crypto.subtle.exportKey("spki", publicKey);
console.log("public key", spki.byteLength, "bytes of SPKI;", JSON.stringify(Object.keys(await crypto.subtle.exportKey("jwk", publicKey)).sort()));
console.log("digest", hex(await crypto.subtle.digest("SHA-256", body)));

const report = "sku,quantity,price\n" + Array.from({ length: 2000 }, (_, i) => `widget-${i % 50},${i % 7},${(i % 13) * 1.5}`).join("\n");
const gzipped = await collect(new Blob([report]).stream().pipeThrough(new CompressionStream("gzip")));
// Node bundles its own zlib build: the compressed bytes may differ from the system zlib's, so print
// what they must have in common (the gzip header, a real reduction) and that they decompress.
console.log("report", report.length, "bytes; gzip header", hex(gzipped.slice(0, 4)), "smaller than a fifth:", gzipped.byteLength * 5 < report.length);
const back = await collect(new Blob([gzipped]).stream().pipeThrough(new DecompressionStream("gzip")).pipeThrough(new TextDecoderStream()), "");
console.log("round trip", back === report);

const form = new FormData();
form.append("order", JSON.stringify(order));
form.append("signature", hex(signature).length + " hex digits");
form.append("report", new Blob([gzipped], { type: "application/gzip" }), "report.csv.gz");
for (const [name, value] of form) console.log("form", name, typeof value === "string" ? value : `${value.constructor.name} ${value.name} ${value.type}, the gzip: ${value.size === gzipped.byteLength}`);

async function collect(stream, text) {
  const parts = [];
  for await (const part of stream) parts.push(part);
  if (text !== undefined) return parts.join("");
  return await new Blob(parts).arrayBuffer();
}
