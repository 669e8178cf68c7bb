"use strict";
// What every interface of the web platform's globals shares, as Web IDL defines it: argument
// counts, dictionaries, enumerable members, the class string, constants, and the default iterator
// of a pair iterable. No globals: the other groups take it as `internals.get("webidl")`.

function requireArguments(count, needed, what) {
  if (count < needed) {
    throw new TypeError(`${what}: ${needed} argument${needed === 1 ? "" : "s"} required, but only ${count} present`);
  }
}

// A dictionary argument: undefined when absent (undefined or null), else the object itself.
function dictionary(value, what) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" && typeof value !== "function") {
    throw new TypeError(`${what}: expected an object (a dictionary)`);
  }
  return value;
}

// Web IDL attributes and operations are enumerable; class members are not.
function enumerable(target, names) {
  for (const name of names) Object.defineProperty(target, name, { enumerable: true });
}

function toStringTag(target, tag) {
  Object.defineProperty(target, Symbol.toStringTag, { value: tag, configurable: true });
}

// Constants, on the interface object and its prototype alike.
function constants(constructor, entries) {
  for (const [name, value] of entries) {
    const descriptor = { value, writable: false, enumerable: true, configurable: false };
    Object.defineProperty(constructor, name, descriptor);
    Object.defineProperty(constructor.prototype, name, descriptor);
  }
}

const KEYS = 1;
const VALUES = 2;
const ENTRIES = 0;
const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));

// The default iterator of a pair iterable named `name` (FormData, URLSearchParams): live, reading
// the list of [name, value] pairs afresh (`listOf(target)`) on each step. Returns a function that
// makes one over `target`, of kind "entries", "keys" or "values".
function pairIterator(name, listOf) {
  const iteratorName = `${name} Iterator`;
  class PairIterator {
    #target;
    #kind;
    #index = 0;

    constructor(target, kind) {
      this.#target = target;
      this.#kind = kind;
    }

    next() {
      if (this === null || typeof this !== "object" || !(#target in this)) {
        throw new TypeError(`${iteratorName}.prototype.next: 'this' is not a ${iteratorName}`);
      }
      const list = listOf(this.#target);
      if (this.#index >= list.length) return { value: undefined, done: true };
      const pair = list[this.#index++];
      if (this.#kind === KEYS) return { value: pair[0], done: false };
      if (this.#kind === VALUES) return { value: pair[1], done: false };
      return { value: [pair[0], pair[1]], done: false };
    }
  }
  Object.setPrototypeOf(PairIterator.prototype, IteratorPrototype);
  delete PairIterator.prototype.constructor;
  enumerable(PairIterator.prototype, ["next"]);
  toStringTag(PairIterator.prototype, iteratorName);
  const kinds = { entries: ENTRIES, keys: KEYS, values: VALUES };
  return (target, kind) => new PairIterator(target, kinds[kind]);
}

// Registers an interface as a platform object that is not serializable, so that structuredClone
// refuses its instances with a DataCloneError. `brand(value, member)` throws unless `value` is one
// (each script's own brand check, as its getters use it).
function unserializable(...brands) {
  for (const brand of brands) {
    internals.platformObjects.register((value) => {
      try {
        brand(value, "");
        return true;
      } catch {
        return false;
      }
    }, null);
  }
}

internals.provide("webidl", Object.freeze({ requireArguments, dictionary, enumerable, toStringTag, constants, pairIterator, unserializable }));
