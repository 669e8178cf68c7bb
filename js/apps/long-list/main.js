// A list of 10,000 orders (more than its app's viewNodes quota of 5,000 could expand) in a list
// given a height: only the rows on screen are expanded. In a terminal (`hybrid run
// js/apps/long-list`): the list has focus; up, down, PageUp, PageDown, Home and End scroll it;
// Tab enters it at its first visible order, Enter opens one; q quits. Piped, it prints the first
// frame and exits. `hybrid run --a11y js/apps/long-list` speaks instead of painting.
const orders = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, customer: `customer ${(i * 7919) % 10_000}`, total: ((i * 37) % 1000) + 0.5 }));

const tree = {
  type: "box", style: { border: "rounded", padding: [0, 1] }, children: [
    { type: "text", text: "${opened}", style: { bold: true } },
    { type: "list", id: "orders", items: "${orders}", key: "id", style: { height: 15 },
      template: { type: "stack", direction: "row", gap: 1, children: [
        { type: "button", id: "order-${id}", text: "#${id}", on: { press: "orders.open" } },
        { type: "text", text: "${customer}", style: { grow: 1 } },
        { type: "text", text: "${total}", style: { dim: true } },
      ] } },
    { type: "text", text: "↑↓ PgUp PgDn Home End scroll · Tab · Enter opens · q quits", style: { dim: true } },
  ],
};

const state = { orders, opened: "10000 orders" };
const handlers = {
  orders: {
    open(event, view) {
      state.opened = `opened order ${event.key}`;
      return view.update(state);
    },
  },
};

(async () => {
  const view = await Hybrid.view.run(handlers, { tree, data: state });
  if (view.mounted.output !== "terminal") {
    await view.stop();
    return;
  }
  const { reason } = await view.done;
  console.log(`long-list: ${reason}; ${state.opened}`);
})();
