exports.fromRequire = require("dual").flavor;
