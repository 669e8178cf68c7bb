// @grants view
// A list of 1,000,000 items given a height, through the bridge: only its window is expanded.
const tree = {
  type: "stack", children: [
    { type: "text", text: "Numbers" },
    { type: "list", id: "numbers", items: "${numbers}", style: { height: 5 },
      template: { type: "button", id: "n-${.}", text: "number ${.}", on: { press: "numbers.open" } } },
  ],
};
const numbers = Array.from({ length: 1_000_000 }, (_, i) => i);
const rows = (text) => text.split("\n").filter((row) => row.length > 0);

describe("a list of 1,000,000 items", () => {
  afterEach(async () => { await Hybrid.call("view", "unmount", {}); });

  test("mounts only the rows on screen, with a scrollbar", async () => {
    const mounted = await Hybrid.view.mount(tree, { numbers }, { width: 24 });
    expect(mounted.nodes).toBeLessThan(40);
    expect(rows(mounted.text)).toEqual([
      "Numbers",
      "[ number 0 ]           █",
      "[ number 1 ]           ┃",
      "[ number 2 ]           ┃",
      "[ number 3 ]           ┃",
      "[ number 4 ]           ┃",
    ]);
    expect((await Hybrid.view.frame()).focus).toBe("numbers");
  });

  test("scrolls by the wheel and by keys, and its items press with their index", async () => {
    await Hybrid.view.mount(tree, { numbers }, { width: 24 });
    expect((await Hybrid.view.wheel("numbers", 500_000)).offset).toBe(500_000);
    let frame = await Hybrid.view.frame();
    expect(rows(frame.text)[1]).toBe("[ number 500000 ]      ┃");
    expect(rows(frame.text)[5]).toBe("[ number 500004 ]      ┃");
    expect((await Hybrid.view.wheel({ x: 3, y: 2 }, -3)).offset).toBe(499_997);
    expect((await Hybrid.view.wheel({ x: 3, y: 0 }, 3)).offset).toBe(null);   // over the title
    expect((await Hybrid.view.key("page-down")).event).toBe(null);
    expect(rows((await Hybrid.view.frame()).text)[1]).toBe("[ number 500002 ]      ┃");
    await Hybrid.view.key("end");
    frame = await Hybrid.view.frame();
    expect(rows(frame.text)[5]).toBe("[ number 999999 ]      █");
    // Tab enters the list at its first visible item; Enter presses it.
    await Hybrid.view.key("tab");
    expect((await Hybrid.view.frame()).focus).toBe("n-999995");
    const { event } = await Hybrid.view.key("enter");
    expect(event).toEqual({ type: "press", handler: "numbers.open", id: "n-999995", key: "999995" });
    await Hybrid.view.key("up");
    expect((await Hybrid.view.frame()).focus).toBe("n-999994");
    await Hybrid.view.key("home");
    frame = await Hybrid.view.frame();
    expect(frame.focus).toBe("numbers");
    expect(rows(frame.text)[1]).toBe("[ number 0 ]           █");
  });

  test("new data re-expands only the window on screen", async () => {
    await Hybrid.view.mount(tree, { numbers }, { width: 24 });
    await Hybrid.view.wheel("numbers", 1000);
    const updated = await Hybrid.view.update({ numbers: numbers.map((n) => n * 2) });
    expect(updated.changedNodes).toBeLessThan(100);
    expect(rows((await Hybrid.view.frame()).text)[1]).toBe("[ number 2000 ]        █");
  });

  test("a wheel over a node that does not scroll is refused, naming the field", async () => {
    await Hybrid.view.mount(tree, { numbers: [1, 2] }, { width: 24 });
    await expect(Hybrid.call("view", "simulate", { type: "wheel", delta: 1 })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/id" });
    await expect(Hybrid.view.wheel("n-1", 1)).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/id" });
  });

  test("an accessible view keeps its screen-reader lines for view.frame", async () => {
    await Hybrid.view.mount(tree, { numbers }, { width: 24, accessible: true });
    await Hybrid.view.key("page-down");
    await Hybrid.view.key("tab");
    expect((await Hybrid.view.frame()).spoken).toEqual([
      "view opened, 1 control",
      "list numbers, 1000000 items, showing 1 to 5",
      "list numbers, 1000000 items, showing 6 to 10",
      "button number 5, list numbers, item 6 of 1000000: number 5",
    ]);
  });
});
