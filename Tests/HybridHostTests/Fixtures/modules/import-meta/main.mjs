console.log(import.meta.url.startsWith("file:///"), import.meta.url.endsWith("/import-meta/main.mjs"));
console.log(import.meta.dirname.endsWith("/import-meta"), import.meta.filename.endsWith("/main.mjs"));
console.log(import.meta.resolve("./other.mjs").endsWith("/import-meta/other.mjs"));
