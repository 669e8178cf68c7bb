// The tasks app: a business DataCenter in JS (task-center.js) over the storage target.
const { TaskCenter } = require("./task-center");

async function main() {
  const center = new TaskCenter();
  console.log("tasks database at version", await center.open());
  const changes = [];
  const subscription = center.watch((events) => changes.push(...events));

  const day = 24 * 3600 * 1000;
  const now = Date.now();
  await center.add("home", [
    { title: "buy milk", due: now - day, tags: ["shop"] },
    { title: "call the plumber", due: now + day, priority: 2 },
    { title: "water the plants", due: now - 2 * day },
  ]);
  await center.add("work", [{ title: "write the report", due: now + 3 * day, priority: 1 }]);

  console.log("open at home:", (await center.open_("home")).map((t) => t.title));
  console.log("overdue:", (await center.overdue(now)).map((t) => t.title));
  console.log("done before now:", await center.completeAllBefore(now));
  console.table(await center.summary());

  await new Promise((resolve) => setTimeout(resolve, 20));
  subscription.stop();
  console.log("change events seen:", changes.map((e) => `${e.type} ${e.key}`).join(", "));
}

main();
