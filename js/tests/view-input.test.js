// @grants view
// Typing into an input through the bridge: change on each edit, submit on Enter, and the data
// clearing the input after a submit.
const tree = {
  type: "stack", children: [
    { type: "input", id: "title", value: "${draft}", placeholder: "new task", style: { width: 14 },
      on: { change: "form.change", submit: "form.submit" } },
    { type: "list", items: "${tasks}", template: { type: "text", text: "- ${.}" } },
    { type: "button", id: "clear", text: "Clear", on: { press: "form.clear" } },
  ],
};
const firstRow = (text) => text.split("\n")[0];

describe("a view's input", () => {
  afterEach(async () => { await Hybrid.call("view", "unmount", {}); });

  test("typing sends change with the value, Enter sends submit, and new data clears it", async () => {
    const changes = [];
    const tasks = [];
    const form = {
      change: (event) => { changes.push(event.value); },
      submit: async (event, view) => {
        tasks.push(event.value);
        await view.update({ draft: "", tasks });
      },
      clear: () => {},
    };
    const view = await Hybrid.view.run({ form }, { tree, data: { draft: "", tasks }, width: 20 });
    expect(firstRow(view.mounted.text)).toBe("new task______");
    expect((await view.frame()).cursor).toEqual({ x: 0, y: 0 });

    const typed = await view.type("你好");
    expect(typed.event).toEqual({ type: "change", handler: "form.change", id: "title", value: "你好" });
    await view.key("left");
    await view.type(" mum");
    await view.key("word-left");
    await view.key("backspace");
    expect(changes).toEqual(["你好", "你 mum好", "你mum好"]);
    let frame = await view.frame();
    expect(firstRow(frame.text)).toBe("你mum好_______");
    expect(frame.cursor).toEqual({ x: 2, y: 0 });

    const submitted = await view.key("enter");
    expect(submitted.event).toEqual({ type: "submit", handler: "form.submit", id: "title", value: "你mum好" });
    expect(tasks).toEqual(["你mum好"]);
    frame = await view.frame();
    expect(frame.text.split("\n").slice(0, 2)).toEqual(["new task______", "- 你mum好"]);
    await view.stop();
  });

  test("text goes to the input named by id; errors name the field", async () => {
    await Hybrid.view.mount(tree, { draft: "", tasks: [] }, { width: 20 });
    await Hybrid.view.key("tab");   // focus on the button
    await expect(Hybrid.view.type("x")).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/id" });
    await expect(Hybrid.view.type("x", "clear")).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/id" });
    await expect(Hybrid.call("view", "simulate", { type: "text" })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/text" });
    const { event } = await Hybrid.view.type("milk", "title");
    expect(event.value).toBe("milk");
    expect((await Hybrid.view.frame()).focus).toBe("title");
  });

  test("a click focuses the input at the character clicked, and presses a button", async () => {
    await Hybrid.view.mount(tree, { draft: "buy milk", tasks: [] }, { width: 20 });
    await Hybrid.view.key("tab");
    expect((await Hybrid.view.frame()).focus).toBe("clear");
    const clicked = await Hybrid.view.click(3, 0);
    expect(clicked).toEqual({ event: null, focus: "title" });
    expect((await Hybrid.view.frame()).cursor).toEqual({ x: 3, y: 0 });
    const pressed = await Hybrid.view.click(2, 1);
    expect(pressed.event).toEqual({ type: "press", handler: "form.clear", id: "clear" });
  });

  test("secret inputs show bullets and maxLength cuts what is typed", async () => {
    const secret = { type: "input", id: "pin", secret: true, maxLength: 4, style: { width: 8 } };
    await Hybrid.view.mount(secret, {}, { width: 10 });
    await Hybrid.view.type("123456");
    expect(firstRow((await Hybrid.view.frame()).text)).toBe("••••____");
    await expect(Hybrid.view.mount({ type: "input", maxLength: -1 })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/tree/maxLength" });
  });

  test("a resize relayouts at the new width and reaches onResize", async () => {
    const sizes = [];
    const view = await Hybrid.view.run({ form: {} }, {
      tree: { type: "box", style: { border: "single" }, children: [{ type: "text", text: "a line that wraps when narrow" }] },
      onResize: (event) => { sizes.push(event); },
    });
    expect(view.mounted.width).toBe(80);
    const resized = await view.resize(20, 8);
    expect(resized).toEqual({ event: { type: "resize", columns: 20, rows: 8 }, width: 20, height: 4 });
    expect(sizes).toEqual([{ type: "resize", columns: 20, rows: 8 }]);
    expect((await view.frame()).text).toBe("┌──────────────────┐\n│a line that wraps │\n│when narrow       │\n└──────────────────┘\n");
    await expect(Hybrid.call("view", "simulate", { type: "resize", columns: 0, rows: 8 })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/columns" });
    await view.stop();
  });
});
