// A task list as a JSON view. In a terminal (`hybrid run js/apps/tasks-view`): Tab moves focus,
// Enter or Space presses, q quits. Piped, it prints the frame as plain text and exits.
const tasks = require("./tasks");
const tree = require("./views/tasks.json");

(async () => {
  const view = await Hybrid.view.run({ tasks }, { tree, data: tasks.viewData() });
  if (view.mounted.output !== "terminal") {
    await view.stop();
    return;
  }
  const { reason } = await view.done;
  const done = tasks.state.tasks.filter((t) => t.done).length;
  console.log(`tasks-view: ${reason}; ${done} of ${tasks.state.tasks.length} tasks done`);
})();
