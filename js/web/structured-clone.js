"use strict";
// structuredClone(value, { transfer }), as the HTML Standard's StructuredSerializeWithTransfer
// followed by StructuredDeserializeWithTransfer, done in one walk: the copy is made as the value is
// read, so nothing is serialized to bytes in between. Cycles and shared references keep their
// shape (the memory map); what cannot be cloned throws a DataCloneError.

const DOMException = internals.get("DOMException");
const platform = internals.platformObjects;

const toString = Object.prototype.toString;
const getPrototypeOf = Object.getPrototypeOf;
const objectProto = Object.prototype;
const arrayProto = Array.prototype;
const isArray = Array.isArray;
const isView = ArrayBuffer.isView;
const ownKeys = Object.keys;

const bufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;
const bufferResizable = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "resizable")?.get;
const bufferMaxByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "maxByteLength")?.get;
const bufferDetached = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "detached")?.get;
const bufferSlice = ArrayBuffer.prototype.slice;
const bufferTransfer = ArrayBuffer.prototype.transfer;
const sharedByteLength = typeof SharedArrayBuffer === "function"
  ? Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, "byteLength").get : undefined;
const TypedArray = getPrototypeOf(Uint8Array);
const typedArrayBuffer = Object.getOwnPropertyDescriptor(TypedArray.prototype, "buffer").get;
const typedArrayName = Object.getOwnPropertyDescriptor(TypedArray.prototype, Symbol.toStringTag).get;
const dataViewBuffer = Object.getOwnPropertyDescriptor(DataView.prototype, "buffer").get;
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, "size").get;
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, "size").get;
const regExpGlobal = Object.getOwnPropertyDescriptor(RegExp.prototype, "global").get;
const dateGetTime = Date.prototype.getTime;
const booleanValueOf = Boolean.prototype.valueOf;
const numberValueOf = Number.prototype.valueOf;
const stringValueOf = String.prototype.valueOf;
const bigintValueOf = BigInt.prototype.valueOf;
const symbolValueOf = Symbol.prototype.valueOf;
const mapForEach = Map.prototype.forEach;
const setForEach = Set.prototype.forEach;
const TypedArrays = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
  ...(typeof Float16Array === "function" ? { Float16Array } : {}),
};
const ERROR_NAMES = new Set(["Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"]);
const ERROR_CONSTRUCTORS = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };

function dataCloneError(what) {
  return new DOMException(`${what} could not be cloned.`, "DataCloneError");
}

// Whether `value` has the internal slot a built-in's method checks: calling it throws otherwise.
function has(check, value) {
  try {
    check.call(value);
    return true;
  } catch {
    return false;
  }
}

function structuredClone(value, options = undefined) {
  if (arguments.length === 0) throw new TypeError("structuredClone: 1 argument required, but only 0 present");
  const memory = new Map();
  const transferred = [];
  if (options !== undefined && options !== null) {
    if (typeof options !== "object") throw new TypeError("structuredClone: options: expected an object");
    const transfer = options.transfer;
    if (transfer !== undefined) {
      if (transfer === null || typeof transfer !== "object" || typeof transfer[Symbol.iterator] !== "function") {
        throw new TypeError("structuredClone: options.transfer: expected a sequence of transferable objects");
      }
      for (const item of transfer) {
        if (item === null || typeof item !== "object" || !has(bufferByteLength, item)) {
          throw dataCloneError(describe(item) + " in options.transfer (only an ArrayBuffer can be transferred)");
        }
        if (transferred.includes(item)) throw dataCloneError("An ArrayBuffer listed twice in options.transfer");
        if (bufferDetached !== undefined && bufferDetached.call(item)) throw dataCloneError("A detached ArrayBuffer");
        transferred.push(item);
      }
    }
  }
  const result = clone(value, memory);
  // Transferred buffers are detached once the whole value has been cloned (an error before that
  // leaves them as they were); their contents live on in the clone.
  for (const buffer of transferred) {
    if (bufferTransfer !== undefined) bufferTransfer.call(buffer);
  }
  return result;
}

function describe(value) {
  if (typeof value === "function") return `function ${value.name || "(anonymous)"}`;
  if (typeof value === "symbol") return value.toString();
  if (value === null || typeof value !== "object") return String(value);
  return toString.call(value);
}

function clone(value, memory) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) {
    if (typeof value === "symbol") throw dataCloneError(describe(value));
    return value;
  }
  const known = memory.get(value);
  if (known !== undefined) return known;

  const proto = getPrototypeOf(value);
  // The common shapes first: plain objects and arrays.
  if (proto === objectProto && typeof value === "object") {
    const copy = {};
    memory.set(value, copy);
    const keys = ownKeys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      copy[key] = clone(value[key], memory);
    }
    return copy;
  }
  if (proto === arrayProto && isArray(value)) return cloneArray(value, memory);
  if (typeof value === "function") throw dataCloneError(describe(value));

  if (has(booleanValueOf, value)) return remember(memory, value, Object(booleanValueOf.call(value)));
  if (has(numberValueOf, value)) return remember(memory, value, Object(numberValueOf.call(value)));
  if (has(bigintValueOf, value)) return remember(memory, value, Object(bigintValueOf.call(value)));
  if (has(stringValueOf, value)) return remember(memory, value, Object(stringValueOf.call(value)));
  if (has(symbolValueOf, value)) throw dataCloneError("A Symbol object");
  if (has(dateGetTime, value)) return remember(memory, value, new Date(dateGetTime.call(value)));
  if (has(regExpGlobal, value)) return remember(memory, value, new RegExp(value.source, value.flags));
  if (has(bufferByteLength, value)) return remember(memory, value, cloneBuffer(value));
  if (sharedByteLength !== undefined && has(sharedByteLength, value)) {
    throw dataCloneError("A SharedArrayBuffer (there is no other agent to share it with)");
  }
  if (isView(value)) return cloneView(value, memory);
  if (has(mapSize, value)) {
    const copy = new Map();
    memory.set(value, copy);
    const entries = [];
    mapForEach.call(value, (v, k) => entries.push(k, v));
    for (let i = 0; i < entries.length; i += 2) copy.set(clone(entries[i], memory), clone(entries[i + 1], memory));
    return copy;
  }
  if (has(setSize, value)) {
    const copy = new Set();
    memory.set(value, copy);
    const entries = [];
    setForEach.call(value, (v) => entries.push(v));
    for (const entry of entries) copy.add(clone(entry, memory));
    return copy;
  }
  const serializer = platform.serializer(value);
  if (serializer !== undefined) {
    if (serializer === null) throw dataCloneError(describe(value));
    return remember(memory, value, serializer(value, (inner) => clone(inner, memory)));
  }
  if (toString.call(value) === "[object Error]" || value instanceof Error) return cloneError(value, memory);
  if (isArray(value)) return cloneArray(value, memory);
  const tag = toString.call(value);
  if (tag === "[object Promise]" || tag === "[object WeakMap]" || tag === "[object WeakSet]" || tag === "[object WeakRef]"
      || tag === "[object FinalizationRegistry]" || tag === "[object Generator]" || tag === "[object AsyncGenerator]") {
    throw dataCloneError(describe(value));
  }
  // Any other object is copied as an ordinary one: its own enumerable properties, not its prototype.
  const copy = {};
  memory.set(value, copy);
  for (const key of ownKeys(value)) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    copy[key] = clone(value[key], memory);
  }
  return copy;
}

function remember(memory, value, copy) {
  memory.set(value, copy);
  return copy;
}

function cloneArray(value, memory) {
  const length = value.length;
  const keys = ownKeys(value);
  // An index-only array without holes (the usual one) is built by push, which keeps the copy a
  // dense array in JavaScriptCore; any other keeps its holes and extra properties.
  if (keys.length === length && (length === 0 || keys[length - 1] === `${length - 1}`)) {
    const copy = [];
    memory.set(value, copy);
    for (let i = 0; i < length; i++) copy.push(clone(value[i], memory));
    return copy;
  }
  const copy = new Array(length);
  memory.set(value, copy);
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    copy[key] = clone(value[key], memory);
  }
  return copy;
}

function cloneBuffer(buffer) {
  if (bufferDetached !== undefined && bufferDetached.call(buffer)) throw dataCloneError("A detached ArrayBuffer");
  if (bufferResizable !== undefined && bufferResizable.call(buffer)) {
    const copy = new ArrayBuffer(bufferByteLength.call(buffer), { maxByteLength: bufferMaxByteLength.call(buffer) });
    new Uint8Array(copy).set(new Uint8Array(buffer));
    return copy;
  }
  return bufferSlice.call(buffer, 0);
}

function cloneView(view, memory) {
  const isDataView = !has(typedArrayName, view) || typedArrayName.call(view) === undefined;
  const buffer = isDataView ? dataViewBuffer.call(view) : typedArrayBuffer.call(view);
  if (bufferDetached !== undefined && bufferDetached.call(buffer)) throw dataCloneError("A view of a detached ArrayBuffer");
  const name = isDataView ? "DataView" : typedArrayName.call(view);
  const Constructor = isDataView ? DataView : TypedArrays[name];
  // A view of a resizable buffer that follows its length keeps following it.
  const tracking = bufferResizable !== undefined && bufferResizable.call(buffer) && isLengthTracking(view, buffer, isDataView);
  const make = (copiedBuffer) => {
    if (tracking) return new Constructor(copiedBuffer, view.byteOffset);
    return isDataView
      ? new DataView(copiedBuffer, view.byteOffset, view.byteLength)
      : new Constructor(copiedBuffer, view.byteOffset, view.length);
  };
  return remember(memory, view, make(clone(buffer, memory)));
}

function isLengthTracking(view, buffer, isDataView) {
  return view.byteOffset + view.byteLength === bufferByteLength.call(buffer) && probeTracking(view, isDataView);
}

function probeTracking(view, isDataView) {
  // A length-tracking view cannot be told apart without resizing; compare with a fixed view.
  const buffer = isDataView ? dataViewBuffer.call(view) : typedArrayBuffer.call(view);
  const before = bufferByteLength.call(buffer);
  if (before === bufferMaxByteLength.call(buffer)) return false;
  const length = isDataView ? view.byteLength : view.length;
  buffer.resize(before + 1);
  const tracked = (isDataView ? view.byteLength : view.length) !== length;
  buffer.resize(before);
  return tracked;
}

function cloneError(value, memory) {
  let name = "Error";
  try {
    const got = value.name;
    if (typeof got === "string" && ERROR_NAMES.has(got)) name = got;
  } catch {}
  const copy = Object.create(ERROR_CONSTRUCTORS[name].prototype);
  memory.set(value, copy);
  const message = Object.getOwnPropertyDescriptor(value, "message");
  if (message !== undefined && "value" in message) {
    Object.defineProperty(copy, "message", { value: `${message.value}`, writable: true, enumerable: false, configurable: true });
  }
  const stack = Object.getOwnPropertyDescriptor(value, "stack");
  if (stack !== undefined && "value" in stack && typeof stack.value === "string") {
    Object.defineProperty(copy, "stack", { value: stack.value, writable: true, enumerable: false, configurable: true });
  }
  const cause = Object.getOwnPropertyDescriptor(value, "cause");
  if (cause !== undefined && "value" in cause) {
    Object.defineProperty(copy, "cause", { value: clone(cause.value, memory), writable: true, enumerable: false, configurable: true });
  }
  return copy;
}

define("structuredClone", structuredClone);
