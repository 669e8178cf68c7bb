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

// ---- BufferSource --------------------------------------------------------------------------------

// The built-ins' own getters, taken once, before any program runs, so that none can replace them:
// every script that reads a BufferSource checks brands and reads parts through these.
// `hasBrand(getter, value)` is true when `value` has the internal slot the getter reads.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const getterOf = (prototype, name) => Object.getOwnPropertyDescriptor(prototype, name).get;
const typedArrayTag = getterOf(TypedArrayPrototype, Symbol.toStringTag);
const typedArrayBuffer = getterOf(TypedArrayPrototype, "buffer");
const typedArrayByteOffset = getterOf(TypedArrayPrototype, "byteOffset");
const typedArrayByteLength = getterOf(TypedArrayPrototype, "byteLength");
const arrayBufferByteLength = getterOf(ArrayBuffer.prototype, "byteLength");
const arrayBufferSlice = ArrayBuffer.prototype.slice;
const dataViewBuffer = getterOf(DataView.prototype, "buffer");
const dataViewByteOffset = getterOf(DataView.prototype, "byteOffset");
const dataViewByteLength = getterOf(DataView.prototype, "byteLength");

function hasBrand(getter, value) {
  if (getter === undefined || value === null || typeof value !== "object") return false;
  try {
    getter.call(value);
    return true;
  } catch {
    return false;
  }
}

// A copy of a BufferSource's bytes as a Uint8Array (a detached buffer has none), or undefined
// for anything else.
function bufferSourceBytes(value) {
  if (typedArrayTag.call(value) !== undefined) {
    const offset = typedArrayByteOffset.call(value);
    return new Uint8Array(arrayBufferSlice.call(typedArrayBuffer.call(value), offset, offset + typedArrayByteLength.call(value)));
  }
  if (hasBrand(arrayBufferByteLength, value)) return new Uint8Array(arrayBufferSlice.call(value, 0));
  if (hasBrand(dataViewBuffer, value)) {
    const offset = dataViewByteOffset.call(value);
    return new Uint8Array(arrayBufferSlice.call(dataViewBuffer.call(value), offset, offset + dataViewByteLength.call(value)));
  }
  return undefined;
}

const buffers = Object.freeze({
  typedArrayTag, typedArrayBuffer, typedArrayByteOffset, typedArrayByteLength, arrayBufferByteLength, arrayBufferSlice,
  sharedArrayBufferByteLength: typeof SharedArrayBuffer === "function" ? getterOf(SharedArrayBuffer.prototype, "byteLength") : undefined,
  dataViewBuffer, dataViewByteOffset, dataViewByteLength, hasBrand, bufferSourceBytes,
});

internals.provide("webidl", Object.freeze({ requireArguments, dictionary, enumerable, toStringTag, constants, pairIterator, unserializable, buffers }));
