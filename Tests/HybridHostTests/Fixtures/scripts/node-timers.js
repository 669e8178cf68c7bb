// Timers as node has them: NodeTimerTests runs this file under node and under `hybrid run` and
// compares what they print. Each step waits for the one before, so the order does not depend on
// how loaded the machine is; the only timing checked is a lower bound (timers never fire early).
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

(async () => {
  const t = setTimeout(() => console.log("wrong: t ran"), 1000);
  console.log("setTimeout returns", typeof t, t.constructor.name);
  console.log("methods", ["ref", "unref", "hasRef", "refresh", "close"].map((name) => typeof t[name]).join(" "));
  console.log("hasRef", t.hasRef(), t.unref() === t, t.hasRef(), t.ref() === t, t.hasRef());
  console.log("as a number", typeof +t, Number.isInteger(+t), `${t}` === String(+t), t[Symbol.toPrimitive]("default") === +t);
  clearTimeout(+t);
  const s = setTimeout(() => console.log("wrong: s ran"), 1);
  clearTimeout(`${s}`);
  const o = setTimeout(() => console.log("wrong: o ran"), 1);
  clearTimeout(o);
  o.refresh();
  const c = setTimeout(() => console.log("wrong: c ran"), 1);
  console.log("close returns the timer", c.close() === c);
  const i = setInterval(() => console.log("wrong: i ran"), 1);
  console.log("setInterval returns", typeof i, i.constructor.name, typeof +i);
  clearInterval(+i);
  const j = setInterval(() => console.log("wrong: j ran"), 1);
  clearInterval(j);
  for (const junk of [undefined, null, {}, "nonsense", 1e300, NaN, -7.5]) clearTimeout(junk);
  try {
    setTimeout("console.log(1)", 1);
  } catch (error) {
    console.log("a string callback throws a TypeError:", error instanceof TypeError);
  }
  await sleep(20);

  await new Promise((resolve) => {
    const a = setTimeout(function (x, y) {
      console.log("the callback's this is the timer:", this === a, x, y);
      resolve();
    }, 1, "x", 2);
  });

  let runs = 0;
  await new Promise((resolve) => {
    const f = setTimeout(() => {
      runs += 1;
      if (runs === 1) f.refresh();
      else resolve();
    }, 1);
  });
  console.log("a timeout refreshed after it fired runs again:", runs);

  await new Promise((resolve) => {
    let refreshedAt;
    const r = setTimeout(() => {
      console.log("refresh() restarted the countdown:", Date.now() - refreshedAt >= 290, r.hasRef());
      resolve();
    }, 300);
    setTimeout(() => {
      refreshedAt = Date.now();
      r.refresh();
    }, 100);
  });

  await new Promise((resolve) => {
    let ticks = 0;
    setInterval(function (label) {
      ticks += 1;
      if (ticks === 3) {
        clearInterval(this);
        console.log(label, ticks);
        resolve();
      }
    }, 1, "interval ticks:");
  });

  await new Promise((resolve) => {
    const keep = setTimeout(() => {}, 10000);
    const u = setTimeout(() => {
      console.log("an unref'd timer runs while another keeps the app alive:", u.hasRef());
      clearTimeout(keep);
      resolve();
    }, 5).unref();
  });

  // 2 s, not less: a loaded machine can take a good part of a second from here to the loop's
  // idle check, and the loop still runs timers that are due by then (libuv would not).
  setTimeout(() => console.log("wrong: an unref'd timeout ran"), 2000).unref();
  setInterval(() => console.log("wrong: an unref'd interval ran"), 2000).unref();
  setTimeout(() => console.log("wrong: ref'd, unref'd, refreshed, ran"), 2000).unref().refresh();
  console.log("last line: unref'd timers alone let the app end");
})();
