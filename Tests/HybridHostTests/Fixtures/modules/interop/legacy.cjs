exports.name = "legacy";
exports.version = 2;
