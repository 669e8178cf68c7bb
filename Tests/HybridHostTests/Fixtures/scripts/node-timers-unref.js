// Unref'd timers set by the main script, due before its turn ends, with nothing else alive: node's
// loop checks that it is alive before it runs timers, so none of them runs and the app ends.
setTimeout(() => console.log("wrong: an unref'd timeout due at once ran"), 0).unref();
setInterval(() => console.log("wrong: an unref'd 1 ms interval ran"), 1).unref();
const busy = Date.now() + 5;
while (Date.now() < busy) {} // both are due before the script's turn ends
Promise.resolve().then(() => console.log("microtasks still run"));
console.log("last line of the script");
