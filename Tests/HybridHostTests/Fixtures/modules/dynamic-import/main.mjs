console.log("before");
const lazy = await import("./lazy.mjs");
console.log("loaded", lazy.default, lazy.value);
const again = await import("./lazy.mjs");
console.log("same namespace", again === lazy);
const cjs = await import("./plain.cjs");
console.log("commonjs default", cjs.default.kind);
try {
  await import("./missing.mjs");
} catch (error) {
  console.log("missing module rejects:", error instanceof Error);
}
const name = "lazy";
const computed = await import(`./${name}.mjs`);
console.log("computed specifier", computed.value);
