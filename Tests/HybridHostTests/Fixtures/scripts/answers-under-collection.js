// Answers built natively (bridge.echo hands its params back as a new value) must survive a
// collection that runs while they are being built: the test runs this with JavaScriptCore told
// to collect at every slow-path allocation.
async function main() {
  const wrong = [];
  for (let round = 0; round < 40; round++) {
    const sent = Array.from({ length: 12 }, (_, i) => ({ s: `s${i}-${round}`, n: i, tags: [`t${i}`, `u${round}`] }));
    const { a } = await Hybrid.call("bridge", "echo", { a: sent });
    a.forEach((got, i) => {
      if (!got || got.s !== sent[i].s || got.n !== i || got.tags[0] !== `t${i}` || got.tags[1] !== `u${round}`) wrong.push(`round ${round} [${i}]`);
    });
  }
  if (wrong.length) throw new Error(`${wrong.length} elements came back wrong: ${wrong.slice(0, 3).join(", ")}`);
  console.log("all answers intact");
}
main();
