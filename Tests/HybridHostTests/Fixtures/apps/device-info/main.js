// Prints what the device service says about this machine, through a module of the app.
const { describe } = require("./lib/describe");

(async () => {
  const info = await Hybrid.call("device", "info", {});
  const { id } = await Hybrid.call("device", "id", {});
  console.log(describe(info));
  console.log(`id ${id}`);
})();
