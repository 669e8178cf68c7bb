// Patch 1 for demo 1.0.0 (amend of report.js). Labels longer than the 14-character column, such
// as E_UNKNOWN_ACTION, pushed their values out of line with every other row. The column now
// fits the longest error code, and `line` keeps working for a longer label.
const WIDTH = 17;
exports.line = (label, value) => console.log(`  ${label.padEnd(WIDTH)} ${value}`);
