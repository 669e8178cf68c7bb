module.exports = function greet() { return "hello"; };
module.exports.extra = 1;
