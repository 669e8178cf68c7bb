// @grants view
const tree = {
  type: "box", style: { border: "rounded", padding: [0, 1], width: 30 },
  children: [
    { type: "text", text: "${user.name}", style: { bold: true } },
    { type: "list", items: "${tasks}", key: "id", template: {
      type: "stack", direction: "row", gap: 1, children: [
        { type: "button", id: "done-${id}", text: "x", on: { press: "tasks.toggle" } },
        { type: "text", text: "${title}" },
      ] } },
    { type: "button", id: "add", text: "Add", on: { press: "tasks.add" } },
  ],
};
const data = { user: { name: "Ada" }, tasks: [{ id: 1, title: "milk" }, { id: 2, title: "eggs" }] };

describe("view", () => {
  afterEach(async () => { await Hybrid.call("view", "unmount", {}); });

  test("mount draws the tree with its data", async () => {
    const mounted = await Hybrid.view.mount(tree, data, { width: 32 });
    expect(mounted).toMatchObject({ width: 32, height: 6, output: "none" });
    expect(mounted.text).toBe([
      "╭────────────────────────────╮",
      "│ Ada                        │",
      "│ [ x ] milk                 │",
      "│ [ x ] eggs                 │",
      "│ [ Add ]                    │",
      "╰────────────────────────────╯",
      "",
    ].join("\n"));
  });

  test("a bad tree is refused with a path into it", async () => {
    const bad = { type: "box", children: [{ type: "text", text: "a" }, { type: "box", style: { border: "dotted" } }] };
    await expect(Hybrid.view.mount(bad)).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/tree/children/1/style/border" });
    await expect(Hybrid.view.mount({ type: "chart" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/tree/type" });
  });

  test("an unknown node type with a fallback shows the fallback", async () => {
    const mounted = await Hybrid.view.mount({ type: "chart", fallback: { type: "text", text: "no charts here" } }, {}, { width: 20 });
    expect(mounted.text).toBe("no charts here\n");
  });

  test("update with a patch redraws only what changed", async () => {
    await Hybrid.view.mount(tree, data, { width: 32 });
    const result = await Hybrid.view.patch([{ op: "replace", path: "/tasks/1/title", value: "bread" }]);
    expect(result.changedNodes).toBe(1);
    expect(result.dirty).toEqual([{ x: 8, y: 3, width: 5, height: 1 }]);   // old and new text
    const frame = await Hybrid.view.frame();
    expect(frame.text).toContain("│ [ x ] bread                │");
  });

  test("a bad patch is refused with a path into the patch", async () => {
    await Hybrid.view.mount(tree, data, { width: 32 });
    await expect(Hybrid.view.patch([{ op: "replace", path: "/tasks/9/title", value: "x" }]))
      .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/patch/0/path" });
  });

  test("update before mount fails as not-mounted", async () => {
    await expect(Hybrid.view.update({})).rejects.toMatchObject({ code: "E_FAILED", details: { reason: "not-mounted" } });
  });

  test("run dispatches presses to the handlers the view names, looked up at dispatch time", async () => {
    const seen = [];
    const tasks = {
      toggle(event) { seen.push(["toggle", event.id, event.key]); },
      add() { seen.push(["add"]); },
    };
    const view = await Hybrid.view.run({ tasks }, { tree, data, width: 32 });
    const handled = async (n) => { while (seen.length < n) await new Promise((r) => setTimeout(r, 1)); };
    await view.press("done-2");
    await view.press("add");
    await handled(2);
    // Hot patch: replace the function on the live object; the next press runs the new one.
    tasks.add = async (event, v) => {
      seen.push(["add2"]);
      await v.patch([{ op: "add", path: "/tasks/-", value: { id: 3, title: "tea" } }]);
    };
    await view.press("add");
    await handled(3);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([["toggle", "done-2", "2"], ["add"], ["add2"]]);
    expect((await view.frame()).text).toContain("[ x ] tea");
    await view.stop();
    expect(await view.done).toEqual({ reason: "stopped" });
  });

  test("Tab moves focus and Enter presses the focused button", async () => {
    await Hybrid.view.mount(tree, data, { width: 32 });
    expect((await Hybrid.view.frame()).focus).toBe("done-1");
    await Hybrid.view.key("tab");
    await Hybrid.view.key("tab");
    expect((await Hybrid.view.frame()).focus).toBe("add");
    const { event } = await Hybrid.view.key("enter");
    expect(event).toEqual({ type: "press", handler: "tasks.add", id: "add" });
    await Hybrid.view.key("shift-tab");
    expect((await Hybrid.view.frame()).focus).toBe("done-2");
    expect(await Hybrid.view.nextEvent()).toEqual(event);
  });

  test("press resolves once its handler has run and redrawn, so frame and stop come after it", async () => {
    const rows = { tasks: [{ id: 1, title: "milk" }, { id: 2, title: "eggs" }] };
    const tasks = {
      // Awaits before it redraws, as a handler that saves first does.
      async toggle(event, v) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        rows.tasks = rows.tasks.filter((t) => String(t.id) !== event.key);
        await v.update({ ...data, ...rows });
      },
      add() {},
    };
    const view = await Hybrid.view.run({ tasks }, { tree, data: { ...data, ...rows }, width: 32 });
    expect(await view.press("done-1")).toEqual({ event: { type: "press", handler: "tasks.toggle", id: "done-1", key: "1" } });
    const { text } = await view.frame();
    expect(text).not.toContain("milk");
    expect(text).toContain("eggs");
    await view.press("done-2");
    await view.stop();
    expect(rows.tasks).toEqual([]);
  });

  test("press rejects with what its handler threw, and the view runs on", async () => {
    const errors = [];
    const tasks = {
      async toggle() { await null; throw new RangeError("no such task"); },
      add() { throw new Error("add broke"); },
    };
    const view = await Hybrid.view.run({ tasks }, { tree, data, width: 32, onError: (e) => errors.push(e) });
    await expect(view.press("done-1")).rejects.toThrow(RangeError);
    await expect(view.press("add")).rejects.toThrow("add broke");
    // Enter on the focused button (done-1) is a press too.
    await expect(view.key("enter")).rejects.toThrow("no such task");
    expect(errors).toEqual([]);
    await view.stop();
  });

  test("press rejects when the view names no handler, or stops before handling it", async () => {
    const view = await Hybrid.view.run({ tasks: { toggle() {} } }, { tree, data, width: 32 });
    await expect(view.press("add")).rejects.toThrow('view: no handler "tasks.add" for press on "add"');
    await expect(view.press("nope")).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/id" });
    const pending = view.press("done-1");
    await view.stop();
    await expect(pending).rejects.toThrow('view: stopped before the press on "done-1" was handled');
    expect(await view.done).toEqual({ reason: "stopped" });
  });

  test("q ends run with quit", async () => {
    const view = await Hybrid.view.run({}, { tree, data, width: 32 });
    await view.key("q");
    expect(await view.done).toEqual({ reason: "quit" });
  });

  test("nextEvent is a long-poll that a timeout cancels", async () => {
    await Hybrid.view.mount(tree, data, { width: 32 });
    await expect(Hybrid.view.nextEvent({ timeoutMs: 30 })).rejects.toMatchObject({ code: "E_TIMEOUT" });
    await Hybrid.view.press("add");
    expect(await Hybrid.view.nextEvent({ timeoutMs: 1000 })).toMatchObject({ type: "press", id: "add" });
  });
});
