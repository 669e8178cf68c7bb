// Throws from inside a timer callback, two frames deep.
function explode(reason) {
  throw new Error(`cart exploded: ${reason}`);
}
setTimeout(function onTick() {
  explode("timer");
}, 1);
