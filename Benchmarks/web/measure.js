"use strict";
// The timing loop every workload under Benchmarks/web/ shares, under node and under `hybrid run`
// alike: warm-up rounds (the JIT tiers up), then whole rounds until `seconds` have passed, and one
// JSON line on stdout, {name, ops, seconds}, that `hybrid-bench web` reads.

// What follows the script: `hybrid run FILE -- ARGS` passes ARGS as Hybrid.args, node as argv.
const args = typeof Hybrid === "object" && Hybrid.args ? Hybrid.args : process.argv.slice(2);

// Runs `round(r)`, which does `size` operations and returns a number (kept, so that no engine can
// drop the work), for a quarter of `seconds` (at least 3 rounds) to warm up, then until `seconds`
// have passed; prints the result line.
function measure(name, size, round, seconds, extra = {}) {
  let check = 0;
  let rounds = 0;
  const warm = performance.now();
  while (rounds < 3 || performance.now() - warm < seconds * 250) check += round(rounds++);
  const warmRounds = rounds;
  const start = performance.now();
  let elapsed = 0;
  do {
    check += round(rounds++);
    elapsed = performance.now() - start;
  } while (elapsed < seconds * 1000);
  // Only the timed rounds: `elapsed` does not include the warm-up.
  const ops = (rounds - warmRounds) * size;
  console.log(JSON.stringify({ name, ops, seconds: +(elapsed / 1000).toFixed(4), check: check % 1000, ...extra }));
}

// `measure` for a round that returns a promise (WebCrypto, streams, Blob reads): each round is
// awaited before the next starts.
async function measureAsync(name, size, round, seconds, extra = {}) {
  let check = 0;
  let rounds = 0;
  const warm = performance.now();
  while (rounds < 3 || performance.now() - warm < seconds * 250) check += await round(rounds++);
  const warmRounds = rounds;
  const start = performance.now();
  let elapsed = 0;
  do {
    check += await round(rounds++);
    elapsed = performance.now() - start;
  } while (elapsed < seconds * 1000);
  const ops = (rounds - warmRounds) * size;
  console.log(JSON.stringify({ name, ops, seconds: +(elapsed / 1000).toFixed(4), check: check % 1000, ...extra }));
}

module.exports = { args, measure, measureAsync };
