// The engine as scripts see it: timers, microtasks, modules, console, many calls.

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe("timers", () => {
  test("run by due time, then in the order they were set", async () => {
    const order = [];
    setTimeout(() => order.push("first 0"), 0);
    setTimeout(() => order.push("second 0"), 0);
    setTimeout(() => order.push("third 0"), 0);
    // Set before the 5 ms timer; only a 295 ms stall between two statements could swap them.
    setTimeout(() => order.push("300"), 300);
    setTimeout(() => order.push("5"), 5);
    await wait(320);
    expect(order).toEqual(["first 0", "second 0", "third 0", "5", "300"]);
  });

  test("setInterval repeats until clearInterval", async () => {
    let ticks = 0;
    await new Promise((resolve) => {
      const id = setInterval(() => {
        ticks += 1;
        if (ticks === 3) { clearInterval(id); resolve(); }
      }, 1);
    });
    await wait(10);
    expect(ticks).toBe(3);
  });

  test("clearTimeout stops a timer", async () => {
    let fired = false;
    clearTimeout(setTimeout(() => { fired = true; }, 1));
    await wait(10);
    expect(fired).toBe(false);
  });

  test("a .then set in a timer runs before the next timer", async () => {
    const log = [];
    setTimeout(() => { log.push("timer 1"); Promise.resolve().then(() => log.push("then")); }, 0);
    setTimeout(() => log.push("timer 2"), 0);
    await wait(10);
    expect(log).toEqual(["timer 1", "then", "timer 2"]);
  });
});

describe("require", () => {
  test("relative paths, with or without .js, and folders by index.js", () => {
    const math = require("./fixtures/math");
    expect(math.add(2, 3)).toBe(5);
    expect(require("./fixtures/math.js")).toBe(math);
    expect(require("./fixtures/cycle").entry).toBe("index");
  });

  test(".json files", () => {
    expect(require("./fixtures/config.json")).toEqual({ name: "tasks", limits: { items: 100 } });
  });

  test("module.exports may be any value, as in node", async () => {
    expect(require("./fixtures/primitive-exports.js")).toBe("a string, not an object");
    expect((await import("./fixtures/primitive-exports.js")).default).toBe("a string, not an object");
  });

  test("the module cache gives the same object every time", () => {
    const counter = require("./fixtures/counter");
    counter.bump();
    expect(require("./fixtures/counter").count()).toBe(1);
    expect(require("./fixtures/counter")).toBe(counter);
  });

  test("cycles see the partial exports of the module still loading, as in node", () => {
    const a = require("./fixtures/cycle/a");
    expect(a.bSaw).toEqual({ early: "a-early", late: "not yet" });
    expect(a.late).toBe("a-late");
  });

  test("a missing module throws, naming it", () => {
    expect(() => require("./fixtures/nope")).toThrow("Cannot find module './fixtures/nope'");
  });
});

describe("console", () => {
  test("console.log does not throw on cycles", () => {
    const cart = { id: 7 };
    cart.self = cart;
    // A TAP comment line, so that the output stays valid TAP.
    expect(() => console.log("# cyclic:", cart)).not.toThrow();
  });
});

describe("many calls", () => {
  test("10,000 concurrent echo calls are all answered with their own results", async () => {
    const calls = [];
    for (let i = 0; i < 10000; i++) calls.push(Hybrid.call("bridge", "echo", { i }));
    const results = await Promise.all(calls);
    expect(results.length).toBe(10000);
    expect(results.filter((r, i) => r.i !== i).length).toBe(0);
  });

  test("1,000 concurrent worker calls are all answered", async () => {
    const results = await Promise.all(Array.from({ length: 1000 }, () => Hybrid.call("device", "screen", {})));
    expect(results.every((r) => r.columns >= 1)).toBe(true);
  });
});
