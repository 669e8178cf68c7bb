"use strict";
// The web platform's globals, installed lazily: each name starts as an accessor on globalThis, and
// the first read of any name of a group runs that group's script (js/web/<group>.js), which
// defines its globals as the plain data properties Web IDL gives interface objects (writable,
// configurable, not enumerable). A program that never touches `URL` never compiles it, so start-up
// pays for none of this. An assignment before the first read replaces the global, as it would a
// plain property, and the group stays unloaded until something else needs it.
//
// `native.groups` lists the groups, the globals each defines and the internal values it provides
// to other groups; `native.load(group, define, internals)` runs a group's script.
// `internals.get(name)` is how one group reaches another's values: a global's original, whatever a
// program has since assigned to it, or a value no program sees (`internals.provide`).
// `internals.now()` and `internals.timeOrigin` are the run's clock (HR-Time's "current high
// resolution time", in ms since the time origin, and that origin in ms since the epoch), which
// `performance` shows and events stamp themselves with, without loading `performance`.

const groups = native.groups;
const originals = new Map();
const loaded = new Set();
const groupOf = new Map();

function provide(name, value) {
  originals.set(name, value);
}

function define(name, value) {
  originals.set(name, value);
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

function load(group) {
  if (loaded.has(group)) return;
  loaded.add(group);
  native.load(group, define, internals);
}

// The platform objects that loaded groups made, for structuredClone: each group registers how to
// tell its objects apart and how to copy the serializable ones (null: not serializable, a
// DataCloneError). A group that never loaded made no objects, so it needs no entry.
const platformKinds = [];
const platformObjects = Object.freeze({
  register(isInstance, serialize) {
    platformKinds.push({ isInstance, serialize });
  },
  serializer(value) {
    for (const kind of platformKinds) {
      if (kind.isInstance(value)) return kind.serialize;
    }
    return undefined;
  },
});

const internals = Object.freeze({
  platformObjects,
  get(name) {
    if (!originals.has(name)) {
      const group = groupOf.get(name);
      if (group === undefined) throw new TypeError(`no web platform value named ${name}`);
      load(group);
    }
    return originals.get(name);
  },
  provide,
  now: native.now,
  timeOrigin: native.timeOrigin,
});

for (const { name: group, globals, provides } of groups) {
  for (const name of provides) groupOf.set(name, group);
  for (const name of globals) {
    groupOf.set(name, group);
    Object.defineProperty(globalThis, name, {
      configurable: true,
      enumerable: false,
      get() {
        load(group);
        // The group's script has replaced this accessor with the value (or left it when the group
        // does not define the name, which is a defect the tests catch).
        const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
        return descriptor && "value" in descriptor ? descriptor.value : undefined;
      },
      set(value) {
        Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
      },
    });
  }
}

// `self` is the global object, as in a window or a worker.
if (!Object.prototype.hasOwnProperty.call(globalThis, "self")) {
  Object.defineProperty(globalThis, "self", { value: globalThis, writable: true, configurable: true, enumerable: true });
}
