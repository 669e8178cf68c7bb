module.exports = { where: "cjs .cjs beside it" };
