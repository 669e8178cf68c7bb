async function load() {
  throw new RangeError("no such page");
}
load();
