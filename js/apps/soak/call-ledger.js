// Every call the soak sends goes through a ledger: sent, answered and failed per kind, and the
// calls still in flight with when they were sent, so that a call never answered is seen while
// the app runs (the watchdog in main.js) rather than as a process that never ends.
class CallLedger {
  constructor(kinds) {
    this.counts = {};
    for (const kind of kinds) this.counts[kind] = { sent: 0, answered: 0, failed: 0 };
    this.inFlight = new Map();   // id -> {kind, what, sentAt}
    this.nextId = 1;
    this.failures = [];          // the first few, for the summary
    this.onAnswer = undefined;   // (kind) => void, after each answered call
  }

  /** Counts `call()` (a function returning a promise) as one call of `kind`; `what` names it. */
  async track(kind, what, call) {
    const id = this.nextId++;
    const counts = this.counts[kind];
    counts.sent += 1;
    this.inFlight.set(id, { kind, what, sentAt: Date.now() });
    try {
      const result = await call();
      counts.answered += 1;
      if (this.onAnswer) this.onAnswer(kind);
      return result;
    } catch (error) {
      counts.failed += 1;
      if (this.failures.length < 5) this.failures.push(`${kind} ${what}: ${error.code || error.name}: ${error.message}`);
      throw error;
    } finally {
      this.inFlight.delete(id);
    }
  }

  /** The call in flight the longest: {kind, what, ageMs}, or undefined. */
  oldest(now = Date.now()) {
    // A Map iterates in insertion order, so the first entry is the oldest.
    for (const { kind, what, sentAt } of this.inFlight.values()) return { kind, what, ageMs: now - sentAt };
    return undefined;
  }

  totals() {
    let sent = 0, answered = 0, failed = 0;
    for (const c of Object.values(this.counts)) { sent += c.sent; answered += c.answered; failed += c.failed; }
    return { sent, answered, failed };
  }
}

module.exports = { CallLedger };
