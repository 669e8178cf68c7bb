// Task handlers: the functions the view names in its `on` entries ("tasks.toggle"). The view JSON
// and these functions can both be patched; the JS client looks the function up at each press.
const state = {
  title: "Tasks",
  tasks: [
    { id: 1, title: "Buy milk", done: false },
    { id: 2, title: "写报告 (write the report)", done: false },
    { id: 3, title: "Call mum 📞", done: true },
  ],
  nextId: 4,
};

/** What the view shows: the state, shaped for its templates. */
function viewData() {
  const tasks = state.tasks.map((t) => ({ id: t.id, title: t.title, mark: t.done ? "x" : " " }));
  const doneCount = state.tasks.filter((t) => t.done).length;
  return { title: state.title, tasks, doneCount, total: state.tasks.length };
}

async function toggle(event, view) {
  const task = state.tasks.find((t) => String(t.id) === event.key);
  if (!task) return;
  task.done = !task.done;
  await view.update(viewData());
}

async function add(event, view) {
  const id = state.nextId++;
  state.tasks.push({ id, title: `New task ${id}`, done: false });
  await view.update(viewData());
}

async function clearDone(event, view) {
  state.tasks = state.tasks.filter((t) => !t.done);
  await view.update(viewData());
}

module.exports = { toggle, add, clearDone, viewData, state };
