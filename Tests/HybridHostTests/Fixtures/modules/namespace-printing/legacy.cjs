exports.b = 2; exports.a = "first";
