module.exports = { kind: "cjs" };
