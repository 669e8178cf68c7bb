"use strict";
// performance, as High Resolution Time and User Timing define it: Performance (an EventTarget,
// whose one instance is `performance`), now() and timeOrigin from the run's clock
// (`internals.now`, `internals.timeOrigin`: the time origin is when the run's globals were
// installed, before the main module), and marks and measures in the performance entry buffer
// (PerformanceEntry, PerformanceMark, PerformanceMeasure), which is not bounded, as User Timing
// leaves it. There is no PerformanceObserver, and no entry of any other type.

const EventTarget = internals.get("EventTarget");
// Loaded when first needed (a detail to copy, an error to throw): `performance.now()` alone loads
// no more than EventTarget.
const structuredClone = (value) => internals.get("structuredClone")(value);
const domException = (message, name) => new (internals.get("DOMException"))(message, name);
const now = internals.now;
const timeOrigin = internals.timeOrigin;
const { requireArguments, dictionary, enumerable, toStringTag } = internals.get("webidl");
const illegal = Symbol("Performance");

// Web IDL's double (DOMHighResTimeStamp): a finite number.
function toDouble(value, what) {
  const number = Number(value);
  if (!Number.isFinite(number)) throw new TypeError(`${what}: the provided double value is non-finite.`);
  return number;
}

// (DOMString or DOMHighResTimeStamp): a number stays one, anything else is a string.
function toMarkOrTime(value, what) {
  return typeof value === "number" ? toDouble(value, what) : `${value}`;
}

// ---- PerformanceEntry, PerformanceMark, PerformanceMeasure --------------------------------------

let entryState;

class PerformanceEntry {
  #state;

  constructor(key = undefined, name = "", entryType = "", startTime = 0, duration = 0) {
    if (key !== illegal) throw new TypeError("Illegal constructor");
    this.#state = { name, entryType, startTime, duration };
  }

  static {
    entryState = (value) => (value !== null && typeof value === "object" && #state in value ? value.#state : undefined);
  }

  get name() { return state(this, "name").name; }
  get entryType() { return state(this, "entryType").entryType; }
  get startTime() { return state(this, "startTime").startTime; }
  get duration() { return state(this, "duration").duration; }

  toJSON() {
    const { name, entryType, startTime, duration } = state(this, "toJSON");
    return { name, entryType, startTime, duration };
  }
}

function state(entry, member) {
  const s = entryState(entry);
  if (s === undefined) throw new TypeError(`PerformanceEntry.prototype.${member}: 'this' is not a PerformanceEntry`);
  return s;
}
enumerable(PerformanceEntry.prototype, ["name", "entryType", "startTime", "duration", "toJSON"]);
toStringTag(PerformanceEntry.prototype, "PerformanceEntry");

// User Timing's "serialize then deserialize" of a detail; null stays null.
function cloneDetail(detail) {
  return detail === undefined || detail === null ? null : structuredClone(detail);
}

class PerformanceMark extends PerformanceEntry {
  #detail;

  constructor(markName, markOptions = undefined) {
    const what = "Failed to construct 'PerformanceMark'";
    requireArguments(arguments.length, 1, what);
    const name = `${markName}`;
    // Dictionary members are read in the order of their names.
    const options = dictionary(markOptions, what) ?? {};
    const detail = options.detail;
    const given = options.startTime;
    let startTime;
    if (given === undefined) {
      startTime = now();
    } else {
      startTime = toDouble(given, `${what}: startTime`);
      if (startTime < 0) throw new TypeError(`${what}: '${name}' cannot have a negative start time.`);
    }
    super(illegal, name, "mark", startTime, 0);
    this.#detail = cloneDetail(detail);
  }

  get detail() {
    if (this === null || typeof this !== "object" || !(#detail in this)) {
      throw new TypeError("PerformanceMark.prototype.detail: 'this' is not a PerformanceMark");
    }
    return this.#detail;
  }
}
enumerable(PerformanceMark.prototype, ["detail"]);
toStringTag(PerformanceMark.prototype, "PerformanceMark");

class PerformanceMeasure extends PerformanceEntry {
  #detail;

  constructor(key = undefined, name = "", startTime = 0, duration = 0, detail = null) {
    if (key !== illegal) throw new TypeError("Illegal constructor");
    super(illegal, name, "measure", startTime, duration);
    this.#detail = detail;
  }

  get detail() {
    if (this === null || typeof this !== "object" || !(#detail in this)) {
      throw new TypeError("PerformanceMeasure.prototype.detail: 'this' is not a PerformanceMeasure");
    }
    return this.#detail;
  }
}
enumerable(PerformanceMeasure.prototype, ["detail"]);
toStringTag(PerformanceMeasure.prototype, "PerformanceMeasure");

// ---- Performance -------------------------------------------------------------------------------

// The performance entry buffer of marks and measures, in the order they were queued.
let buffer = [];
let performanceObject;

function check(value, member) {
  if (value !== performanceObject) throw new TypeError(`Performance.prototype.${member}: 'this' is not a Performance (Illegal invocation)`);
}

// The entries of the buffer that match, in chronological order of their start times.
function filtered(name, type) {
  const entries = buffer.filter((entry) => {
    const s = entryState(entry);
    return (name === undefined || s.name === name) && (type === undefined || s.entryType === type);
  });
  return entries.sort((a, b) => entryState(a).startTime - entryState(b).startTime);
}

// The buffer less the entries of `type` named `name` (every one of them when `name` is undefined).
function cleared(type, name) {
  return buffer.filter((entry) => {
    const s = entryState(entry);
    return s.entryType !== type || (name !== undefined && s.name !== name);
  });
}

// User Timing's "convert a mark to a timestamp".
function markTime(mark, what) {
  if (typeof mark === "number") {
    if (mark < 0) throw new TypeError(`${what}: '${mark}' cannot be negative.`);
    return mark;
  }
  for (let i = buffer.length - 1; i >= 0; i--) {
    const s = entryState(buffer[i]);
    if (s.entryType === "mark" && s.name === mark) return s.startTime;
  }
  throw domException(`${what}: The mark '${mark}' does not exist.`, "SyntaxError");
}

class Performance extends EventTarget {
  constructor(key = undefined) {
    if (key !== illegal) throw new TypeError("Illegal constructor");
    super();
  }

  // On hot paths: the check is inline, the clock one native call.
  now() {
    if (this !== performanceObject) check(this, "now");
    return now();
  }

  get timeOrigin() {
    check(this, "timeOrigin");
    return timeOrigin;
  }

  toJSON() {
    check(this, "toJSON");
    return { timeOrigin };
  }

  mark(markName, markOptions = undefined) {
    check(this, "mark");
    requireArguments(arguments.length, 1, "Failed to execute 'mark' on 'Performance'");
    const entry = new PerformanceMark(markName, markOptions);
    buffer.push(entry);
    return entry;
  }

  clearMarks(markName = undefined) {
    check(this, "clearMarks");
    const name = markName === undefined ? undefined : `${markName}`;
    buffer = cleared("mark", name);
  }

  measure(measureName, startOrMeasureOptions = undefined, endMark = undefined) {
    check(this, "measure");
    const what = "Failed to execute 'measure' on 'Performance'";
    requireArguments(arguments.length, 1, what);
    const name = `${measureName}`;
    // (DOMString or PerformanceMeasureOptions): undefined, null and objects are the dictionary.
    const isOptions = startOrMeasureOptions === undefined || startOrMeasureOptions === null
      || typeof startOrMeasureOptions === "object" || typeof startOrMeasureOptions === "function";
    let options = {};
    let startMark;
    if (isOptions) {
      const given = dictionary(startOrMeasureOptions, what) ?? {};
      // Read in the order of the members' names: detail, duration, end, start.
      const detail = given.detail;
      const duration = given.duration === undefined ? undefined : toDouble(given.duration, `${what}: duration`);
      const end = given.end === undefined ? undefined : toMarkOrTime(given.end, `${what}: end`);
      const start = given.start === undefined ? undefined : toMarkOrTime(given.start, `${what}: start`);
      options = { detail, duration, end, start };
    } else {
      startMark = `${startOrMeasureOptions}`;
    }
    const end = endMark === undefined ? undefined : `${endMark}`;
    const { start: optionStart, end: optionEnd, duration } = options;
    if (isOptions && (optionStart !== undefined || optionEnd !== undefined || duration !== undefined || options.detail !== undefined)) {
      if (end !== undefined) throw new TypeError(`${what}: an endMark cannot be given with a PerformanceMeasureOptions that has members.`);
      if (optionStart === undefined && optionEnd === undefined) {
        throw new TypeError(`${what}: a PerformanceMeasureOptions must have a start or an end.`);
      }
      if (optionStart !== undefined && optionEnd !== undefined && duration !== undefined) {
        throw new TypeError(`${what}: a PerformanceMeasureOptions cannot have a start, a duration and an end.`);
      }
    }
    let endTime;
    if (end !== undefined) endTime = markTime(end, what);
    else if (optionEnd !== undefined) endTime = markTime(optionEnd, what);
    else if (optionStart !== undefined && duration !== undefined) endTime = markTime(optionStart, what) + markTime(duration, what);
    else endTime = now();
    let startTime;
    if (optionStart !== undefined) startTime = markTime(optionStart, what);
    else if (duration !== undefined && optionEnd !== undefined) startTime = endTime - markTime(duration, what);
    else if (startMark !== undefined) startTime = markTime(startMark, what);
    else startTime = 0;
    const entry = new PerformanceMeasure(illegal, name, startTime, endTime - startTime, cloneDetail(options.detail));
    buffer.push(entry);
    return entry;
  }

  clearMeasures(measureName = undefined) {
    check(this, "clearMeasures");
    const name = measureName === undefined ? undefined : `${measureName}`;
    buffer = cleared("measure", name);
  }

  getEntries() {
    check(this, "getEntries");
    return filtered(undefined, undefined);
  }

  getEntriesByType(type) {
    check(this, "getEntriesByType");
    requireArguments(arguments.length, 1, "Failed to execute 'getEntriesByType' on 'Performance'");
    return filtered(undefined, `${type}`);
  }

  getEntriesByName(name, type = undefined) {
    check(this, "getEntriesByName");
    requireArguments(arguments.length, 1, "Failed to execute 'getEntriesByName' on 'Performance'");
    return filtered(`${name}`, type === undefined ? undefined : `${type}`);
  }
}
enumerable(Performance.prototype, ["now", "timeOrigin", "toJSON", "mark", "clearMarks", "measure", "clearMeasures",
  "getEntries", "getEntriesByType", "getEntriesByName"]);
toStringTag(Performance.prototype, "Performance");

performanceObject = new Performance(illegal);
define("PerformanceEntry", PerformanceEntry);
define("PerformanceMark", PerformanceMark);
define("PerformanceMeasure", PerformanceMeasure);
define("Performance", Performance);
define("performance", performanceObject);
// Its entries are platform objects that cannot be cloned; so is performance (an EventTarget).
internals.platformObjects.register((value) => entryState(value) !== undefined, null);
