// A synchronous loop that never ends: only --time-limit stops it.
let spins = 0;
while (true) {
  spins += 1;
}
