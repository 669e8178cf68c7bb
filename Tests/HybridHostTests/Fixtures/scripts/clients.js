// Prints what Hybrid holds: each object member's keys, else the member's type.
const shape = {};
for (const name of Object.keys(Hybrid).sort()) {
  const value = Hybrid[name];
  shape[name] = typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value).sort() : typeof value;
}
console.log(JSON.stringify(shape));
