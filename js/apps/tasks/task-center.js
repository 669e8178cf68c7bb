// TaskCenter: a business DataCenter (strong business) written in JS. It composes the storage
// target's generic tables (weak business: single-table CRUD) into the operations the app thinks
// in: add a task to a list, complete it, what is due, an atomic "done before X", a list with its
// counts. Callers never see SQL, table names or the storage target.
const schema = require("./schema");

class TaskCenter {
  constructor(database = "tasks") {
    this.database = database;
  }

  call(action, params) {
    return Hybrid.call("storage", action, { database: this.database, ...params });
  }

  /** Creates or migrates the database; returns its version. */
  async open() {
    const { version } = await this.call("open", { schema });
    return version;
  }

  /** The list named `name`, created when missing: returns its id. */
  async list(name) {
    const { records } = await this.call("find", { table: "lists", where: { name }, columns: ["id"] });
    if (records.length > 0) return records[0].id;
    await this.call("insert", { table: "lists", records: [{ name, createdAt: Date.now() }] });
    return (await this.call("find", { table: "lists", where: { name }, columns: ["id"] })).records[0].id;
  }

  /** Adds tasks to a list in one transaction: `[{title, due?, priority?, tags?}]`. */
  async add(listName, tasks) {
    const listId = await this.list(listName);
    const { inserted } = await this.call("insert", { table: "tasks", records: tasks.map((task) => ({ ...task, listId })) });
    return inserted;
  }

  /** Open tasks of a list, most urgent first: by priority, then due date. */
  async open_(listName) {
    const listId = await this.list(listName);
    const { records } = await this.call("find", {
      table: "tasks", where: { listId, done: false }, orderBy: ["-priority", "due", "title"],
    });
    return records;
  }

  async complete(taskId) {
    const { changed } = await this.call("update", { table: "tasks", where: { id: taskId }, set: { done: true } });
    return changed === 1;
  }

  /** Tasks not done whose due date is before `time`, over every list. */
  async overdue(time) {
    return (await this.call("find", { table: "tasks", where: { done: false, due: { lt: time } }, orderBy: "due" })).records;
  }

  /**
   * "Mark every task due before X done" as one operation: the count and the update run in one
   * transaction, so the count is exactly what was changed.
   */
  async completeAllBefore(time) {
    const { results } = await this.call("transaction", { ops: [
      { action: "update", table: "tasks", where: { done: false, due: { lt: time } }, set: { done: true } },
      { action: "count", table: "tasks", where: { done: false } },
    ] });
    return { completed: results[0].changed, remaining: results[1].count };
  }

  /** Every list with its open and done counts. */
  async summary() {
    const { records: lists } = await this.call("find", { table: "lists", orderBy: "name" });
    return Promise.all(lists.map(async (list) => {
      const [open, done] = await Promise.all([
        this.call("count", { table: "tasks", where: { listId: list.id, done: false } }),
        this.call("count", { table: "tasks", where: { listId: list.id, done: true } }),
      ]);
      return { list: list.name, open: open.count, done: done.count };
    }));
  }

  /** Calls `onChange(events)` after each commit touching tasks; returns the subscription. */
  watch(onChange) {
    return Hybrid.subscribe("storage", "watch", { database: this.database, tables: ["tasks"] }, (batch) => {
      if (batch.events.length > 0) onChange(batch.events);
    });
  }
}

module.exports = { TaskCenter };
