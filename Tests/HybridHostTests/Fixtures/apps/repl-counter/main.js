// An app for `hybrid repl` tests: exports to reach as `app`, and a timer that keeps ticking
// between the lines typed.
let ticks = 0;
const timer = setInterval(() => { ticks += 1; }, 5);

exports.greet = (name) => `hello ${name}`;
exports.ticks = () => ticks;
exports.stop = () => clearInterval(timer);
