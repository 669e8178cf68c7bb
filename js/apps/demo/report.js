// Small formatting helpers for the demo's terminal report.
exports.section = (title) => console.log(`\n== ${title}`);
exports.line = (label, value) => console.log(`  ${label.padEnd(14)} ${value}`);
exports.bytes = (n) => `${(n / 2 ** 30).toFixed(1)} GiB`;
