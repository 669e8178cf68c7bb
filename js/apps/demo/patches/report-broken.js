// Patch 2 for demo 1.0.0 (amend of report.js), published to show the automatic halt: it throws
// while loading, so every device that applies it rolls it back to patch 1 at once and reports
// why, and the patch server halts it once the rollbacks pass its threshold.
const WIDTH = 17;
exports.line = (label, value) => console.log(`  ${label.padEnd(WIDTH)} ${value}`);
exports.table = columns.map((c) => c.padEnd(WIDTH)); // `columns` was never declared: a ReferenceError at load
