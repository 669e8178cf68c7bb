"use strict";
// The WHATWG Streams Standard (https://streams.spec.whatwg.org/): ReadableStream (default and byte
// streams, default and BYOB readers, tee, pipeTo, pipeThrough, async iteration, from),
// WritableStream, TransformStream and the two queuing strategies, written from the standard's
// algorithms, each function named as the standard names it so that it can be held against it.
//
// Every public object is a thin shell holding its internal slots (a `...Slots` record) in a
// private field; the algorithms work on the records, which point back at their shells
// (`object`) where a shell must be handed out (a controller to `start`, a branch of a tee).
// Nothing here resolves a promise with a read result or looks up a property a program could have
// put on Object.prototype (a `then`, a `highWaterMark`), except where the standard reads a
// program's dictionary. Queues are O(1) at both ends (`Queue`), so a long stream costs no
// shifting.
//
// Other groups use the streams without their public API through `internals.get`:
// `isReadableStream`, `isWritableStream`, `createReadableStream` (the standard's
// CreateReadableStream over a start, pull and cancel algorithm, with a high-water mark and a size
// algorithm), `readableStreamFromIterable`, `isReadableStreamLocked` and
// `isReadableStreamDisturbed`.

const { requireArguments, enumerable, toStringTag } = internals.get("webidl");
const { hasBrand } = internals.get("webidl").buffers;

// ---- What the algorithms build on --------------------------------------------------------------

const PromiseCtor = Promise;
const promiseThen = Promise.prototype.then;
const promiseResolve = Promise.resolve;
const promiseReject = Promise.reject;
const promiseWithResolvers = Promise.withResolvers ?? function withResolvers() {
  let resolve;
  let reject;
  const promise = new PromiseCtor((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
};
const queueMicrotaskOriginal = queueMicrotask;
const ArrayBufferCtor = ArrayBuffer;
const isView = ArrayBuffer.isView;
const bufferSlice = ArrayBuffer.prototype.slice;
const bufferTransfer = ArrayBuffer.prototype.transfer;
const bufferByteLength = internals.get("webidl").buffers.arrayBufferByteLength;
const bufferDetached = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "detached")?.get;
const bufferResizable = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "resizable")?.get;
const TypedArray = Object.getPrototypeOf(Uint8Array);
const typedArrayName = Object.getOwnPropertyDescriptor(TypedArray.prototype, Symbol.toStringTag).get;
const typedArrayBuffer = Object.getOwnPropertyDescriptor(TypedArray.prototype, "buffer").get;
const typedArrayByteOffset = Object.getOwnPropertyDescriptor(TypedArray.prototype, "byteOffset").get;
const typedArrayByteLength = Object.getOwnPropertyDescriptor(TypedArray.prototype, "byteLength").get;
const typedArrayLength = Object.getOwnPropertyDescriptor(TypedArray.prototype, "length").get;
const typedArraySet = TypedArray.prototype.set;
const dataViewBuffer = Object.getOwnPropertyDescriptor(DataView.prototype, "buffer").get;
const dataViewByteOffset = Object.getOwnPropertyDescriptor(DataView.prototype, "byteOffset").get;
const dataViewByteLength = Object.getOwnPropertyDescriptor(DataView.prototype, "byteLength").get;
const Uint8ArrayCtor = Uint8Array;
const DataViewCtor = DataView;
const TYPED_ARRAYS = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
  ...(typeof Float16Array === "function" ? { Float16Array } : {}),
};
const AsyncIteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}.prototype));
const symbolAsyncIterator = Symbol.asyncIterator;
const symbolIterator = Symbol.iterator;
const noop = () => {};
const reflectApply = Reflect.apply;

function isObject(value) {
  return value !== null && (typeof value === "object" || typeof value === "function");
}

function newPromise() {
  return new Deferred();
}

// A promise with its resolving functions, and whether it has settled (the writer's "if
// writer.[[closedPromise]] is pending" needs to know).
class Deferred {
  constructor() {
    this.settled = false;
    this.fulfilled = false;
    const { promise, resolve, reject } = promiseWithResolvers.call(PromiseCtor);
    this.promise = promise;
    this.resolveFunction = resolve;
    this.rejectFunction = reject;
  }

  resolve(value) {
    if (this.settled) return;
    this.settled = true;
    this.fulfilled = true;
    this.resolveFunction(value);
  }

  reject(reason) {
    if (this.settled) return;
    this.settled = true;
    this.rejectFunction(reason);
  }
}

function resolvedDeferred(value) {
  const deferred = new Deferred();
  deferred.resolve(value);
  return deferred;
}

function rejectedDeferred(reason) {
  const deferred = new Deferred();
  deferred.reject(reason);
  setPromiseIsHandledToTrue(deferred.promise);
  return deferred;
}

// Web IDL's "a promise resolved with": always a new promise (a promise given is adopted, which
// takes two more microtasks than Promise.resolve, and the standard's timing counts on them).
function promiseResolvedWith(value) {
  if (!isObject(value)) return promiseResolve.call(PromiseCtor, value);
  return new PromiseCtor((resolve) => resolve(value));
}

function promiseRejectedWith(reason) {
  return promiseReject.call(PromiseCtor, reason);
}

const resolvedUndefined = () => promiseResolvedWith(undefined);

function uponPromise(promise, onFulfilled, onRejected) {
  promiseThen.call(promise, onFulfilled, onRejected);
}

function uponFulfillment(promise, onFulfilled) {
  promiseThen.call(promise, onFulfilled, noop);
}

function uponRejection(promise, onRejected) {
  promiseThen.call(promise, undefined, onRejected);
}

function transformPromiseWith(promise, onFulfilled, onRejected) {
  return promiseThen.call(promise, onFulfilled, onRejected);
}

function setPromiseIsHandledToTrue(promise) {
  promiseThen.call(promise, undefined, noop);
}

// A FIFO with O(1) push and shift: an array and the index of its head, cut down when the consumed
// part is most of it (Array.prototype.shift copies the whole array in JavaScriptCore).
class Queue {
  constructor() {
    this.items = [];
    this.head = 0;
  }

  get size() {
    return this.items.length - this.head;
  }

  push(value) {
    this.items.push(value);
  }

  peek() {
    return this.items[this.head];
  }

  shift() {
    const items = this.items;
    const value = items[this.head];
    items[this.head] = undefined;
    this.head++;
    if (this.head === items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= items.length) {
      this.items = items.slice(this.head);
      this.head = 0;
    }
    return value;
  }

  // The list emptied, handed out for its items to be visited in order.
  drain() {
    const items = this.head === 0 ? this.items : this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return items;
  }
}

// ---- Web IDL conversions -----------------------------------------------------------------------

// A callback function member of a dictionary: undefined when absent, else it must be callable.
function callbackMember(dictionary, name, what) {
  const value = dictionary[name];
  if (value === undefined) return undefined;
  if (typeof value !== "function") throw new TypeError(`${what}: ${name} must be a function, got ${describe(value)}`);
  return value;
}

function describe(value) {
  if (value === null) return "null";
  if (typeof value === "string") return `the string "${value}"`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${typeof value === "symbol" ? value.toString() : value}`;
}

// A dictionary argument: undefined and null are the empty dictionary; anything else not an object
// is a TypeError.
function dictionaryOf(value, what) {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new TypeError(`${what}: expected an object (a dictionary), got ${describe(value)}`);
  return value;
}

function toBoolean(value) {
  return !!value;
}

// [EnforceRange] unsigned long long.
function enforceRangeUnsignedLongLong(value, what) {
  const number = +value;
  if (!Number.isFinite(number)) throw new TypeError(`${what}: expected a finite number, got ${describe(value)}`);
  const integer = Math.trunc(number);
  if (integer < 0 || integer > Number.MAX_SAFE_INTEGER) {
    throw new TypeError(`${what}: ${integer} is outside the range of an unsigned long long`);
  }
  return integer === 0 ? 0 : integer;
}

// QueuingStrategy: { highWaterMark (unrestricted double), size (a function) }, read in that order.
function convertQueuingStrategy(value, what) {
  const strategy = dictionaryOf(value, what);
  if (strategy === undefined) return { highWaterMark: undefined, size: undefined };
  const hwm = strategy.highWaterMark;
  const highWaterMark = hwm === undefined ? undefined : +hwm;
  const size = callbackMember(strategy, "size", `${what}: strategy`);
  return { highWaterMark, size };
}

function ExtractHighWaterMark(strategy, defaultHWM) {
  if (strategy.highWaterMark === undefined) return defaultHWM;
  const highWaterMark = strategy.highWaterMark;
  if (Number.isNaN(highWaterMark) || highWaterMark < 0) {
    throw new RangeError(`highWaterMark must be a non-negative number, got ${highWaterMark}`);
  }
  return highWaterMark;
}

const sizeOne = () => 1;

function ExtractSizeAlgorithm(strategy) {
  const size = strategy.size;
  if (size === undefined) return sizeOne;
  return (chunk) => reflectApply(size, undefined, [chunk]);
}

// An ArrayBufferView argument ([AllowShared] and [AllowResizable] absent): its kind and fields.
// Returns undefined for anything else.
function viewInfo(value) {
  if (!isObject(value) || !isView(value)) return undefined;
  const name = typedArrayName.call(value);
  let buffer;
  let byteOffset;
  let byteLength;
  let constructor;
  let elementSize;
  let length;
  if (name === undefined) {
    buffer = dataViewBuffer.call(value);
    constructor = DataViewCtor;
    elementSize = 1;
    if (IsDetachedBuffer(buffer)) {
      byteOffset = 0;
      byteLength = 0;
    } else {
      byteOffset = dataViewByteOffset.call(value);
      byteLength = dataViewByteLength.call(value);
    }
    length = byteLength;
  } else {
    buffer = typedArrayBuffer.call(value);
    constructor = TYPED_ARRAYS[name];
    elementSize = constructor.BYTES_PER_ELEMENT;
    byteOffset = typedArrayByteOffset.call(value);
    byteLength = typedArrayByteLength.call(value);
    length = typedArrayLength.call(value);
  }
  return { view: value, buffer, byteOffset, byteLength, constructor, elementSize, length, typed: name !== undefined };
}

function convertArrayBufferView(value, what) {
  const info = viewInfo(value);
  if (info === undefined) throw new TypeError(`${what}: expected an ArrayBufferView (a typed array or a DataView), got ${describe(value)}`);
  if (!isArrayBuffer(info.buffer)) throw new TypeError(`${what}: a view on a SharedArrayBuffer is not allowed`);
  if (bufferResizable !== undefined && bufferResizable.call(info.buffer)) {
    throw new TypeError(`${what}: a view on a resizable ArrayBuffer is not allowed`);
  }
  return info;
}

function isArrayBuffer(value) {
  return hasBrand(bufferByteLength, value);
}

function IsDetachedBuffer(buffer) {
  if (bufferDetached !== undefined) return bufferDetached.call(buffer);
  return false;
}

function arrayBufferByteLength(buffer) {
  return bufferByteLength.call(buffer);
}

// TransferArrayBuffer: the contents move to a new ArrayBuffer, the old one is detached. A buffer
// that cannot be detached (a WebAssembly.Memory's) throws a TypeError from transfer() itself.
function TransferArrayBuffer(buffer) {
  if (IsDetachedBuffer(buffer)) throw new TypeError("the ArrayBuffer is detached");
  return bufferTransfer.call(buffer);
}

function CanTransferArrayBuffer(buffer) {
  return !IsDetachedBuffer(buffer);
}

function CloneArrayBuffer(buffer, byteOffset, byteLength) {
  return bufferSlice.call(buffer, byteOffset, byteOffset + byteLength);
}

function CopyDataBlockBytes(toBuffer, toIndex, fromBuffer, fromIndex, count) {
  typedArraySet.call(new Uint8ArrayCtor(toBuffer, toIndex, count), new Uint8ArrayCtor(fromBuffer, fromIndex, count));
}

// The standard's IsNonNegativeNumber.
function IsNonNegativeNumber(value) {
  return typeof value === "number" && !Number.isNaN(value) && value >= 0;
}

// ---- Queue-with-sizes --------------------------------------------------------------------------

class ValueWithSize {
  constructor(value, size) {
    this.value = value;
    this.size = size;
  }
}

function EnqueueValueWithSize(container, value, size) {
  if (!IsNonNegativeNumber(size)) throw new RangeError(`the size of a chunk must be a non-negative number, got ${size}`);
  if (size === Infinity) throw new RangeError("the size of a chunk must be finite, got Infinity");
  container.queue.push(new ValueWithSize(value, size));
  container.queueTotalSize += size;
}

function DequeueValue(container) {
  const pair = container.queue.shift();
  container.queueTotalSize -= pair.size;
  if (container.queueTotalSize < 0) container.queueTotalSize = 0;
  return pair.value;
}

function PeekQueueValue(container) {
  return container.queue.peek().value;
}

function ResetQueue(container) {
  container.queue = new Queue();
  container.queueTotalSize = 0;
}

// ---- Internal slots ----------------------------------------------------------------------------

// How a shell is made for slots made here: its constructor takes them from `handoff` when given
// the token, which no program holds.
const INTERNAL = Object.freeze({});
let handoff;

function shell(Constructor, slots) {
  handoff = slots;
  const object = new Constructor(INTERNAL);
  return object;
}

class ReadableStreamSlots {
  constructor() {
    this.object = undefined;
    this.state = "readable";
    this.reader = undefined;
    this.storedError = undefined;
    this.disturbed = false;
    this.controller = undefined;
  }
}

// ReadableStreamDefaultReader and ReadableStreamBYOBReader: the generic reader's slots, and the
// read requests (default) or read-into requests (BYOB).
class ReaderSlots {
  constructor(byob) {
    this.object = undefined;
    this.byob = byob;
    this.stream = undefined;
    this.closed = undefined;
    this.requests = new Queue();
  }
}

class ReadableStreamDefaultControllerSlots {
  constructor() {
    this.object = undefined;
    this.byte = false;
    this.stream = undefined;
    this.queue = undefined;
    this.queueTotalSize = 0;
    this.started = false;
    this.closeRequested = false;
    this.pullAgain = false;
    this.pulling = false;
    this.strategySizeAlgorithm = undefined;
    this.strategyHWM = 0;
    this.pullAlgorithm = undefined;
    this.cancelAlgorithm = undefined;
  }
}

class ReadableByteStreamControllerSlots {
  constructor() {
    this.object = undefined;
    this.byte = true;
    this.stream = undefined;
    this.autoAllocateChunkSize = undefined;
    this.byobRequest = null;
    this.queue = undefined;
    this.queueTotalSize = 0;
    this.started = false;
    this.closeRequested = false;
    this.pullAgain = false;
    this.pulling = false;
    this.strategyHWM = 0;
    this.pullAlgorithm = undefined;
    this.cancelAlgorithm = undefined;
    this.pendingPullIntos = new Queue();
  }
}

class ReadableStreamBYOBRequestSlots {
  constructor(controller, view) {
    this.object = undefined;
    this.controller = controller;
    this.view = view;
  }
}

class PullIntoDescriptor {
  constructor(buffer, bufferByteLength, byteOffset, byteLength, bytesFilled, minimumFill, elementSize, viewConstructor, readerType) {
    this.buffer = buffer;
    this.bufferByteLength = bufferByteLength;
    this.byteOffset = byteOffset;
    this.byteLength = byteLength;
    this.bytesFilled = bytesFilled;
    this.minimumFill = minimumFill;
    this.elementSize = elementSize;
    this.viewConstructor = viewConstructor;
    this.readerType = readerType;
  }
}

class ByteQueueEntry {
  constructor(buffer, byteOffset, byteLength) {
    this.buffer = buffer;
    this.byteOffset = byteOffset;
    this.byteLength = byteLength;
  }
}

class WritableStreamSlots {
  constructor() {
    this.object = undefined;
    this.state = "writable";
    this.storedError = undefined;
    this.writer = undefined;
    this.controller = undefined;
    this.inFlightWriteRequest = undefined;
    this.closeRequest = undefined;
    this.inFlightCloseRequest = undefined;
    this.pendingAbortRequest = undefined;
    this.writeRequests = new Queue();
    this.backpressure = false;
  }
}

class WritableStreamDefaultWriterSlots {
  constructor() {
    this.object = undefined;
    this.stream = undefined;
    this.ready = undefined;
    this.closed = undefined;
  }
}

class WritableStreamDefaultControllerSlots {
  constructor() {
    this.object = undefined;
    this.stream = undefined;
    this.abortController = undefined;
    this.queue = undefined;
    this.queueTotalSize = 0;
    this.started = false;
    this.strategySizeAlgorithm = undefined;
    this.strategyHWM = 0;
    this.writeAlgorithm = undefined;
    this.closeAlgorithm = undefined;
    this.abortAlgorithm = undefined;
  }
}

class TransformStreamSlots {
  constructor() {
    this.object = undefined;
    this.readable = undefined;
    this.writable = undefined;
    this.backpressure = undefined;
    this.backpressureChangePromise = undefined;
    this.controller = undefined;
  }
}

class TransformStreamDefaultControllerSlots {
  constructor() {
    this.object = undefined;
    this.stream = undefined;
    this.transformAlgorithm = undefined;
    this.flushAlgorithm = undefined;
    this.cancelAlgorithm = undefined;
    this.finishPromise = undefined;
  }
}

// The close sentinel a WritableStreamDefaultController's queue holds.
const closeSentinel = Object.freeze({});

// Brand checks, each set in its class's static block: (value) => its slots, or undefined.
let readableStreamSlots;
let defaultReaderSlots;
let byobReaderSlots;
let defaultControllerSlots;
let byteControllerSlots;
let byobRequestSlots;
let writableStreamSlots;
let writerSlots;
let writableControllerSlots;
let transformStreamSlots;
let transformControllerSlots;

function thisSlots(check, value, interfaceName, member) {
  const slots = check(value);
  if (slots === undefined) throw new TypeError(`${interfaceName}.prototype.${member}: 'this' is not a ${interfaceName}`);
  return slots;
}

// ---- Invoking a program's callbacks ------------------------------------------------------------

// Web IDL's "invoke a callback function" for a callback returning a promise: a throw becomes a
// rejected promise, anything else a promise resolved with it.
function invokeReturningPromise(method, receiver, args) {
  try {
    return promiseResolvedWith(reflectApply(method, receiver, args));
  } catch (error) {
    return promiseRejectedWith(error);
  }
}

// The same for the callbacks called once per chunk, without an array of arguments.
function invokeReturningPromise1(method, receiver, arg) {
  try {
    return promiseResolvedWith(reflectApply(method, receiver, [arg]));
  } catch (error) {
    return promiseRejectedWith(error);
  }
}

function invokeReturningPromise2(method, receiver, arg1, arg2) {
  try {
    return promiseResolvedWith(reflectApply(method, receiver, [arg1, arg2]));
  } catch (error) {
    return promiseRejectedWith(error);
  }
}

// ---- ReadableStream: abstract operations -------------------------------------------------------

function AcquireReadableStreamBYOBReader(stream) {
  const reader = new ReaderSlots(true);
  SetUpReadableStreamBYOBReader(reader, stream);
  shell(ReadableStreamBYOBReader, reader);
  return reader;
}

function AcquireReadableStreamDefaultReader(stream) {
  const reader = new ReaderSlots(false);
  SetUpReadableStreamDefaultReader(reader, stream);
  shell(ReadableStreamDefaultReader, reader);
  return reader;
}

function newReadableStream() {
  const stream = new ReadableStreamSlots();
  shell(ReadableStream, stream);
  return stream;
}

function CreateReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark = 1, sizeAlgorithm = sizeOne) {
  const stream = newReadableStream();
  const controller = new ReadableStreamDefaultControllerSlots();
  shell(ReadableStreamDefaultController, controller);
  SetUpReadableStreamDefaultController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm);
  return stream;
}

function CreateReadableByteStream(startAlgorithm, pullAlgorithm, cancelAlgorithm) {
  const stream = newReadableStream();
  const controller = new ReadableByteStreamControllerSlots();
  shell(ReadableByteStreamController, controller);
  SetUpReadableByteStreamController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, 0, undefined);
  return stream;
}

function IsReadableStreamLocked(stream) {
  return stream.reader !== undefined;
}

// ReadableStreamFromIterable: a stream that pulls from an async iterator (a sync iterable is
// made async as CreateAsyncFromSyncIterator does), with no queue of its own (high-water mark 0).
function ReadableStreamFromIterable(asyncIterable) {
  let stream;
  const iteratorRecord = GetAsyncIterator(asyncIterable);
  const startAlgorithm = noop;
  const pullAlgorithm = () => {
    let nextResult;
    try {
      nextResult = reflectApply(iteratorRecord.nextMethod, iteratorRecord.iterator, []);
    } catch (error) {
      return promiseRejectedWith(error);
    }
    const nextPromise = promiseResolvedWith(nextResult);
    return transformPromiseWith(nextPromise, (iterResult) => {
      if (!isObject(iterResult)) throw new TypeError("ReadableStream.from: the iterator's next() result is not an object");
      const done = toBoolean(iterResult.done);
      if (done) {
        ReadableStreamDefaultControllerClose(stream.controller);
      } else {
        const value = iterResult.value;
        ReadableStreamDefaultControllerEnqueue(stream.controller, value);
      }
    });
  };
  const cancelAlgorithm = (reason) => {
    const iterator = iteratorRecord.iterator;
    let returnMethod;
    try {
      returnMethod = iterator.return;
      if (returnMethod !== undefined && returnMethod !== null && typeof returnMethod !== "function") {
        throw new TypeError("ReadableStream.from: the iterator's return is not a function");
      }
    } catch (error) {
      return promiseRejectedWith(error);
    }
    if (returnMethod === undefined || returnMethod === null) return promiseResolvedWith(undefined);
    let returnResult;
    try {
      returnResult = reflectApply(returnMethod, iterator, [reason]);
    } catch (error) {
      return promiseRejectedWith(error);
    }
    const returnPromise = promiseResolvedWith(returnResult);
    return transformPromiseWith(returnPromise, (iterResult) => {
      if (!isObject(iterResult)) throw new TypeError("ReadableStream.from: the iterator's return() result is not an object");
      return undefined;
    });
  };
  stream = CreateReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, 0);
  return stream;
}

// GetIterator(obj, async): { iterator, nextMethod }.
function GetAsyncIterator(value) {
  if (value === undefined || value === null) throw new TypeError(`ReadableStream.from: expected an async iterable or an iterable, got ${describe(value)}`);
  const method = value[symbolAsyncIterator];
  if (method === undefined || method === null) {
    const syncMethod = value[symbolIterator];
    if (syncMethod === undefined || syncMethod === null) {
      throw new TypeError("ReadableStream.from: the value is neither an async iterable nor an iterable (it has no Symbol.asyncIterator or Symbol.iterator method)");
    }
    if (typeof syncMethod !== "function") throw new TypeError("ReadableStream.from: Symbol.iterator is not a function");
    const syncIterator = reflectApply(syncMethod, value, []);
    if (!isObject(syncIterator)) throw new TypeError("ReadableStream.from: the iterator is not an object");
    const syncNext = syncIterator.next;
    return CreateAsyncFromSyncIterator(syncIterator, syncNext);
  }
  if (typeof method !== "function") throw new TypeError("ReadableStream.from: Symbol.asyncIterator is not a function");
  const iterator = reflectApply(method, value, []);
  if (!isObject(iterator)) throw new TypeError("ReadableStream.from: the async iterator is not an object");
  return { iterator, nextMethod: iterator.next };
}

// ECMAScript's CreateAsyncFromSyncIterator: next() and return() of a sync iterator, each result's
// value awaited; a rejected value closes the sync iterator (AsyncFromSyncIteratorContinuation).
function CreateAsyncFromSyncIterator(syncIterator, syncNext) {
  const continuation = (result, closeOnRejection) => {
    const done = toBoolean(result.done);
    const value = result.value;
    let valueWrapper;
    try {
      valueWrapper = promiseResolvedWith(value);
    } catch (error) {
      if (!done && closeOnRejection) closeSyncIterator(syncIterator);
      throw error;
    }
    return transformPromiseWith(valueWrapper, (v) => ({ value: v, done }), (error) => {
      if (!done && closeOnRejection) closeSyncIterator(syncIterator);
      throw error;
    });
  };
  const iterator = {
    next(value) {
      try {
        const result = arguments.length > 0 ? reflectApply(syncNext, syncIterator, [value]) : reflectApply(syncNext, syncIterator, []);
        if (!isObject(result)) throw new TypeError("ReadableStream.from: the iterator's next() result is not an object");
        return continuation(result, true);
      } catch (error) {
        return promiseRejectedWith(error);
      }
    },
    return(value) {
      try {
        const method = syncIterator.return;
        if (method === undefined || method === null) return promiseResolvedWith({ value, done: true });
        const result = arguments.length > 0 ? reflectApply(method, syncIterator, [value]) : reflectApply(method, syncIterator, []);
        if (!isObject(result)) throw new TypeError("ReadableStream.from: the iterator's return() result is not an object");
        return continuation(result, false);
      } catch (error) {
        return promiseRejectedWith(error);
      }
    },
  };
  return { iterator, nextMethod: iterator.next };
}

function closeSyncIterator(syncIterator) {
  try {
    const method = syncIterator.return;
    if (method !== undefined && method !== null) reflectApply(method, syncIterator, []);
  } catch {}
}

function ReadableStreamCancel(stream, reason) {
  stream.disturbed = true;
  if (stream.state === "closed") return promiseResolvedWith(undefined);
  if (stream.state === "errored") return promiseRejectedWith(stream.storedError);
  ReadableStreamClose(stream);
  const reader = stream.reader;
  if (reader !== undefined && reader.byob) {
    const readIntoRequests = reader.requests.drain();
    for (const readIntoRequest of readIntoRequests) readIntoRequest.closeSteps(undefined);
  }
  const sourceCancelPromise = stream.controller.byte
    ? ReadableByteStreamControllerCancelSteps(stream.controller, reason)
    : ReadableStreamDefaultControllerCancelSteps(stream.controller, reason);
  return transformPromiseWith(sourceCancelPromise, noop);
}

function ReadableStreamClose(stream) {
  stream.state = "closed";
  const reader = stream.reader;
  if (reader === undefined) return;
  reader.closed.resolve(undefined);
  if (!reader.byob) {
    const readRequests = reader.requests.drain();
    for (const readRequest of readRequests) readRequest.closeSteps();
  }
}

function ReadableStreamError(stream, e) {
  stream.state = "errored";
  stream.storedError = e;
  const reader = stream.reader;
  if (reader === undefined) return;
  reader.closed.reject(e);
  setPromiseIsHandledToTrue(reader.closed.promise);
  if (!reader.byob) ReadableStreamDefaultReaderErrorReadRequests(reader, e);
  else ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e);
}

function ReadableStreamAddReadRequest(stream, readRequest) {
  stream.reader.requests.push(readRequest);
}

function ReadableStreamAddReadIntoRequest(stream, readIntoRequest) {
  stream.reader.requests.push(readIntoRequest);
}

function ReadableStreamFulfillReadRequest(stream, chunk, done) {
  const readRequest = stream.reader.requests.shift();
  if (done) readRequest.closeSteps();
  else readRequest.chunkSteps(chunk);
}

function ReadableStreamFulfillReadIntoRequest(stream, chunk, done) {
  const readIntoRequest = stream.reader.requests.shift();
  if (done) readIntoRequest.closeSteps(chunk);
  else readIntoRequest.chunkSteps(chunk);
}

function ReadableStreamGetNumReadRequests(stream) {
  return stream.reader.requests.size;
}

function ReadableStreamGetNumReadIntoRequests(stream) {
  return stream.reader.requests.size;
}

function ReadableStreamHasDefaultReader(stream) {
  const reader = stream.reader;
  return reader !== undefined && !reader.byob;
}

function ReadableStreamHasBYOBReader(stream) {
  const reader = stream.reader;
  return reader !== undefined && reader.byob;
}

// ---- Readers: abstract operations --------------------------------------------------------------

function ReadableStreamReaderGenericCancel(reader, reason) {
  return ReadableStreamCancel(reader.stream, reason);
}

function ReadableStreamReaderGenericInitialize(reader, stream) {
  reader.stream = stream;
  stream.reader = reader;
  if (stream.state === "readable") reader.closed = newPromise();
  else if (stream.state === "closed") reader.closed = resolvedDeferred(undefined);
  else reader.closed = rejectedDeferred(stream.storedError);
}

function ReadableStreamReaderGenericRelease(reader) {
  const stream = reader.stream;
  const error = new TypeError("the reader's lock on the stream was released");
  if (stream.state === "readable") reader.closed.reject(error);
  else reader.closed = rejectedDeferred(error);
  setPromiseIsHandledToTrue(reader.closed.promise);
  if (stream.controller.byte) ReadableByteStreamControllerReleaseSteps(stream.controller);
  stream.reader = undefined;
  reader.stream = undefined;
}

function ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e) {
  const readIntoRequests = reader.requests.drain();
  for (const readIntoRequest of readIntoRequests) readIntoRequest.errorSteps(e);
}

function ReadableStreamBYOBReaderRead(reader, view, min, readIntoRequest) {
  const stream = reader.stream;
  stream.disturbed = true;
  if (stream.state === "errored") readIntoRequest.errorSteps(stream.storedError);
  else ReadableByteStreamControllerPullInto(stream.controller, view, min, readIntoRequest);
}

function ReadableStreamBYOBReaderRelease(reader) {
  ReadableStreamReaderGenericRelease(reader);
  const e = new TypeError("the reader's lock on the stream was released");
  ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e);
}

function ReadableStreamDefaultReaderErrorReadRequests(reader, e) {
  const readRequests = reader.requests.drain();
  for (const readRequest of readRequests) readRequest.errorSteps(e);
}

function ReadableStreamDefaultReaderRead(reader, readRequest) {
  const stream = reader.stream;
  stream.disturbed = true;
  if (stream.state === "closed") readRequest.closeSteps();
  else if (stream.state === "errored") readRequest.errorSteps(stream.storedError);
  else if (stream.controller.byte) ReadableByteStreamControllerPullSteps(stream.controller, readRequest);
  else ReadableStreamDefaultControllerPullSteps(stream.controller, readRequest);
}

function ReadableStreamDefaultReaderRelease(reader) {
  ReadableStreamReaderGenericRelease(reader);
  const e = new TypeError("the reader's lock on the stream was released");
  ReadableStreamDefaultReaderErrorReadRequests(reader, e);
}

function SetUpReadableStreamBYOBReader(reader, stream) {
  if (IsReadableStreamLocked(stream)) throw new TypeError("the ReadableStream is locked to a reader already");
  if (!stream.controller.byte) {
    throw new TypeError("a BYOB reader needs a readable byte stream (one made with type: \"bytes\")");
  }
  ReadableStreamReaderGenericInitialize(reader, stream);
  reader.requests = new Queue();
}

function SetUpReadableStreamDefaultReader(reader, stream) {
  if (IsReadableStreamLocked(stream)) throw new TypeError("the ReadableStream is locked to a reader already");
  ReadableStreamReaderGenericInitialize(reader, stream);
  reader.requests = new Queue();
}

// The read request of reader.read(): its promise gets { value, done }.
class PromiseReadRequest {
  constructor(deferred) {
    this.deferred = deferred;
  }

  chunkSteps(chunk) {
    this.deferred.resolve({ value: chunk, done: false });
  }

  closeSteps() {
    this.deferred.resolve({ value: undefined, done: true });
  }

  errorSteps(e) {
    this.deferred.reject(e);
  }
}

// The read-into request of a BYOB reader's read(view).
class PromiseReadIntoRequest {
  constructor(deferred) {
    this.deferred = deferred;
  }

  chunkSteps(chunk) {
    this.deferred.resolve({ value: chunk, done: false });
  }

  closeSteps(chunk) {
    this.deferred.resolve({ value: chunk, done: true });
  }

  errorSteps(e) {
    this.deferred.reject(e);
  }
}

// ---- ReadableStreamDefaultController: abstract operations --------------------------------------

function ReadableStreamDefaultControllerCancelSteps(controller, reason) {
  ResetQueue(controller);
  const result = controller.cancelAlgorithm(reason);
  ReadableStreamDefaultControllerClearAlgorithms(controller);
  return result;
}

function ReadableStreamDefaultControllerPullSteps(controller, readRequest) {
  const stream = controller.stream;
  if (controller.queue.size > 0) {
    const chunk = DequeueValue(controller);
    if (controller.closeRequested && controller.queue.size === 0) {
      ReadableStreamDefaultControllerClearAlgorithms(controller);
      ReadableStreamClose(stream);
    } else {
      ReadableStreamDefaultControllerCallPullIfNeeded(controller);
    }
    readRequest.chunkSteps(chunk);
  } else {
    ReadableStreamAddReadRequest(stream, readRequest);
    ReadableStreamDefaultControllerCallPullIfNeeded(controller);
  }
}

function ReadableStreamDefaultControllerCallPullIfNeeded(controller) {
  const shouldPull = ReadableStreamDefaultControllerShouldCallPull(controller);
  if (!shouldPull) return;
  if (controller.pulling) {
    controller.pullAgain = true;
    return;
  }
  controller.pulling = true;
  const pullPromise = controller.pullAlgorithm();
  uponPromise(pullPromise, () => {
    controller.pulling = false;
    if (controller.pullAgain) {
      controller.pullAgain = false;
      ReadableStreamDefaultControllerCallPullIfNeeded(controller);
    }
  }, (e) => {
    ReadableStreamDefaultControllerError(controller, e);
  });
}

function ReadableStreamDefaultControllerShouldCallPull(controller) {
  const stream = controller.stream;
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)) return false;
  if (!controller.started) return false;
  if (IsReadableStreamLocked(stream) && ReadableStreamGetNumReadRequests(stream) > 0) return true;
  const desiredSize = ReadableStreamDefaultControllerGetDesiredSize(controller);
  return desiredSize > 0;
}

function ReadableStreamDefaultControllerClearAlgorithms(controller) {
  controller.pullAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
  controller.strategySizeAlgorithm = undefined;
}

function ReadableStreamDefaultControllerClose(controller) {
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)) return;
  const stream = controller.stream;
  controller.closeRequested = true;
  if (controller.queue.size === 0) {
    ReadableStreamDefaultControllerClearAlgorithms(controller);
    ReadableStreamClose(stream);
  }
}

function ReadableStreamDefaultControllerEnqueue(controller, chunk) {
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)) return;
  const stream = controller.stream;
  if (IsReadableStreamLocked(stream) && ReadableStreamGetNumReadRequests(stream) > 0) {
    ReadableStreamFulfillReadRequest(stream, chunk, false);
  } else {
    let chunkSize;
    try {
      chunkSize = controller.strategySizeAlgorithm(chunk);
    } catch (error) {
      ReadableStreamDefaultControllerError(controller, error);
      throw error;
    }
    try {
      EnqueueValueWithSize(controller, chunk, chunkSize);
    } catch (error) {
      ReadableStreamDefaultControllerError(controller, error);
      throw error;
    }
  }
  ReadableStreamDefaultControllerCallPullIfNeeded(controller);
}

function ReadableStreamDefaultControllerError(controller, e) {
  const stream = controller.stream;
  if (stream.state !== "readable") return;
  ResetQueue(controller);
  ReadableStreamDefaultControllerClearAlgorithms(controller);
  ReadableStreamError(stream, e);
}

function ReadableStreamDefaultControllerGetDesiredSize(controller) {
  const state = controller.stream.state;
  if (state === "errored") return null;
  if (state === "closed") return 0;
  return controller.strategyHWM - controller.queueTotalSize;
}

function ReadableStreamDefaultControllerHasBackpressure(controller) {
  return !ReadableStreamDefaultControllerShouldCallPull(controller);
}

function ReadableStreamDefaultControllerCanCloseOrEnqueue(controller) {
  return !controller.closeRequested && controller.stream.state === "readable";
}

function SetUpReadableStreamDefaultController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm) {
  controller.stream = stream;
  ResetQueue(controller);
  controller.started = false;
  controller.closeRequested = false;
  controller.pullAgain = false;
  controller.pulling = false;
  controller.strategySizeAlgorithm = sizeAlgorithm;
  controller.strategyHWM = highWaterMark;
  controller.pullAlgorithm = pullAlgorithm;
  controller.cancelAlgorithm = cancelAlgorithm;
  stream.controller = controller;
  const startResult = startAlgorithm();
  const startPromise = promiseResolvedWith(startResult);
  uponPromise(startPromise, () => {
    controller.started = true;
    ReadableStreamDefaultControllerCallPullIfNeeded(controller);
  }, (r) => {
    ReadableStreamDefaultControllerError(controller, r);
  });
}

function SetUpReadableStreamDefaultControllerFromUnderlyingSource(stream, underlyingSource, underlyingSourceDict, highWaterMark, sizeAlgorithm) {
  const controller = new ReadableStreamDefaultControllerSlots();
  shell(ReadableStreamDefaultController, controller);
  let startAlgorithm = noop;
  let pullAlgorithm = resolvedUndefined;
  let cancelAlgorithm = resolvedUndefined;
  const { start, pull, cancel } = underlyingSourceDict;
  if (start !== undefined) startAlgorithm = () => reflectApply(start, underlyingSource, [controller.object]);
  if (pull !== undefined) pullAlgorithm = () => invokeReturningPromise1(pull, underlyingSource, controller.object);
  if (cancel !== undefined) cancelAlgorithm = (reason) => invokeReturningPromise(cancel, underlyingSource, [reason]);
  SetUpReadableStreamDefaultController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm);
}

// ---- ReadableByteStreamController: abstract operations -----------------------------------------

function ReadableByteStreamControllerCancelSteps(controller, reason) {
  ReadableByteStreamControllerClearPendingPullIntos(controller);
  ResetQueue(controller);
  const result = controller.cancelAlgorithm(reason);
  ReadableByteStreamControllerClearAlgorithms(controller);
  return result;
}

function ReadableByteStreamControllerPullSteps(controller, readRequest) {
  const stream = controller.stream;
  if (controller.queueTotalSize > 0) {
    ReadableByteStreamControllerFillReadRequestFromQueue(controller, readRequest);
    return;
  }
  const autoAllocateChunkSize = controller.autoAllocateChunkSize;
  if (autoAllocateChunkSize !== undefined) {
    let buffer;
    try {
      buffer = new ArrayBufferCtor(autoAllocateChunkSize);
    } catch (error) {
      readRequest.errorSteps(error);
      return;
    }
    controller.pendingPullIntos.push(new PullIntoDescriptor(buffer, autoAllocateChunkSize, 0, autoAllocateChunkSize, 0, 1, 1, Uint8ArrayCtor, "default"));
  }
  ReadableStreamAddReadRequest(stream, readRequest);
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

function ReadableByteStreamControllerReleaseSteps(controller) {
  if (controller.pendingPullIntos.size > 0) {
    const firstPendingPullInto = controller.pendingPullIntos.peek();
    firstPendingPullInto.readerType = "none";
    controller.pendingPullIntos = new Queue();
    controller.pendingPullIntos.push(firstPendingPullInto);
  }
}

function ReadableByteStreamControllerCallPullIfNeeded(controller) {
  const shouldPull = ReadableByteStreamControllerShouldCallPull(controller);
  if (!shouldPull) return;
  if (controller.pulling) {
    controller.pullAgain = true;
    return;
  }
  controller.pulling = true;
  const pullPromise = controller.pullAlgorithm();
  uponPromise(pullPromise, () => {
    controller.pulling = false;
    if (controller.pullAgain) {
      controller.pullAgain = false;
      ReadableByteStreamControllerCallPullIfNeeded(controller);
    }
  }, (e) => {
    ReadableByteStreamControllerError(controller, e);
  });
}

function ReadableByteStreamControllerClearAlgorithms(controller) {
  controller.pullAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
}

function ReadableByteStreamControllerClearPendingPullIntos(controller) {
  ReadableByteStreamControllerInvalidateBYOBRequest(controller);
  controller.pendingPullIntos = new Queue();
}

function ReadableByteStreamControllerClose(controller) {
  const stream = controller.stream;
  if (controller.closeRequested || stream.state !== "readable") return;
  if (controller.queueTotalSize > 0) {
    controller.closeRequested = true;
    return;
  }
  if (controller.pendingPullIntos.size > 0) {
    const firstPendingPullInto = controller.pendingPullIntos.peek();
    if (firstPendingPullInto.bytesFilled % firstPendingPullInto.elementSize !== 0) {
      const e = new TypeError("close() would leave a partly filled element in the view a BYOB read is filling");
      ReadableByteStreamControllerError(controller, e);
      throw e;
    }
  }
  ReadableByteStreamControllerClearAlgorithms(controller);
  ReadableStreamClose(stream);
}

function ReadableByteStreamControllerCommitPullIntoDescriptor(stream, pullIntoDescriptor) {
  let done = false;
  if (stream.state === "closed") done = true;
  const filledView = ReadableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor);
  if (pullIntoDescriptor.readerType === "default") ReadableStreamFulfillReadRequest(stream, filledView, done);
  else ReadableStreamFulfillReadIntoRequest(stream, filledView, done);
}

function ReadableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor) {
  const bytesFilled = pullIntoDescriptor.bytesFilled;
  const elementSize = pullIntoDescriptor.elementSize;
  const buffer = TransferArrayBuffer(pullIntoDescriptor.buffer);
  return new pullIntoDescriptor.viewConstructor(buffer, pullIntoDescriptor.byteOffset, bytesFilled / elementSize);
}

function ReadableByteStreamControllerEnqueue(controller, chunk) {
  const stream = controller.stream;
  if (controller.closeRequested || stream.state !== "readable") return;
  const { buffer, byteOffset, byteLength } = chunk;
  if (IsDetachedBuffer(buffer)) throw new TypeError("enqueue(): the chunk's ArrayBuffer is detached");
  const transferredBuffer = TransferArrayBuffer(buffer);
  if (controller.pendingPullIntos.size > 0) {
    const firstPendingPullInto = controller.pendingPullIntos.peek();
    if (IsDetachedBuffer(firstPendingPullInto.buffer)) {
      throw new TypeError("enqueue(): the ArrayBuffer of the BYOB request's view is detached");
    }
    ReadableByteStreamControllerInvalidateBYOBRequest(controller);
    firstPendingPullInto.buffer = TransferArrayBuffer(firstPendingPullInto.buffer);
    if (firstPendingPullInto.readerType === "none") {
      ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, firstPendingPullInto);
    }
  }
  if (ReadableStreamHasDefaultReader(stream)) {
    ReadableByteStreamControllerProcessReadRequestsUsingQueue(controller);
    if (ReadableStreamGetNumReadRequests(stream) === 0) {
      ReadableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
    } else {
      if (controller.pendingPullIntos.size > 0) ReadableByteStreamControllerShiftPendingPullInto(controller);
      const transferredView = new Uint8ArrayCtor(transferredBuffer, byteOffset, byteLength);
      ReadableStreamFulfillReadRequest(stream, transferredView, false);
    }
  } else if (ReadableStreamHasBYOBReader(stream)) {
    ReadableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
    const filledPullIntos = ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
    for (const filledPullInto of filledPullIntos) ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullInto);
  } else {
    ReadableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
  }
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

function ReadableByteStreamControllerEnqueueChunkToQueue(controller, buffer, byteOffset, byteLength) {
  controller.queue.push(new ByteQueueEntry(buffer, byteOffset, byteLength));
  controller.queueTotalSize += byteLength;
}

function ReadableByteStreamControllerEnqueueClonedChunkToQueue(controller, buffer, byteOffset, byteLength) {
  let cloneResult;
  try {
    cloneResult = CloneArrayBuffer(buffer, byteOffset, byteLength);
  } catch (error) {
    ReadableByteStreamControllerError(controller, error);
    throw error;
  }
  ReadableByteStreamControllerEnqueueChunkToQueue(controller, cloneResult, 0, byteLength);
}

function ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, pullIntoDescriptor) {
  if (pullIntoDescriptor.bytesFilled > 0) {
    ReadableByteStreamControllerEnqueueClonedChunkToQueue(controller, pullIntoDescriptor.buffer, pullIntoDescriptor.byteOffset, pullIntoDescriptor.bytesFilled);
  }
  ReadableByteStreamControllerShiftPendingPullInto(controller);
}

function ReadableByteStreamControllerError(controller, e) {
  const stream = controller.stream;
  if (stream.state !== "readable") return;
  ReadableByteStreamControllerClearPendingPullIntos(controller);
  ResetQueue(controller);
  ReadableByteStreamControllerClearAlgorithms(controller);
  ReadableStreamError(stream, e);
}

function ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller, size, pullIntoDescriptor) {
  pullIntoDescriptor.bytesFilled += size;
}

function ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor) {
  const maxBytesToCopy = Math.min(controller.queueTotalSize, pullIntoDescriptor.byteLength - pullIntoDescriptor.bytesFilled);
  const maxBytesFilled = pullIntoDescriptor.bytesFilled + maxBytesToCopy;
  let totalBytesToCopyRemaining = maxBytesToCopy;
  let ready = false;
  const remainderBytes = maxBytesFilled % pullIntoDescriptor.elementSize;
  const maxAlignedBytes = maxBytesFilled - remainderBytes;
  if (maxAlignedBytes >= pullIntoDescriptor.minimumFill) {
    totalBytesToCopyRemaining = maxAlignedBytes - pullIntoDescriptor.bytesFilled;
    ready = true;
  }
  const queue = controller.queue;
  while (totalBytesToCopyRemaining > 0) {
    const headOfQueue = queue.peek();
    const bytesToCopy = Math.min(totalBytesToCopyRemaining, headOfQueue.byteLength);
    const destStart = pullIntoDescriptor.byteOffset + pullIntoDescriptor.bytesFilled;
    CopyDataBlockBytes(pullIntoDescriptor.buffer, destStart, headOfQueue.buffer, headOfQueue.byteOffset, bytesToCopy);
    if (headOfQueue.byteLength === bytesToCopy) {
      queue.shift();
    } else {
      headOfQueue.byteOffset += bytesToCopy;
      headOfQueue.byteLength -= bytesToCopy;
    }
    controller.queueTotalSize -= bytesToCopy;
    ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller, bytesToCopy, pullIntoDescriptor);
    totalBytesToCopyRemaining -= bytesToCopy;
  }
  return ready;
}

function ReadableByteStreamControllerFillReadRequestFromQueue(controller, readRequest) {
  const entry = controller.queue.shift();
  controller.queueTotalSize -= entry.byteLength;
  ReadableByteStreamControllerHandleQueueDrain(controller);
  const view = new Uint8ArrayCtor(entry.buffer, entry.byteOffset, entry.byteLength);
  readRequest.chunkSteps(view);
}

function ReadableByteStreamControllerGetBYOBRequest(controller) {
  if (controller.byobRequest === null && controller.pendingPullIntos.size > 0) {
    const firstDescriptor = controller.pendingPullIntos.peek();
    const view = new Uint8ArrayCtor(firstDescriptor.buffer, firstDescriptor.byteOffset + firstDescriptor.bytesFilled, firstDescriptor.byteLength - firstDescriptor.bytesFilled);
    const byobRequest = new ReadableStreamBYOBRequestSlots(controller, view);
    shell(ReadableStreamBYOBRequest, byobRequest);
    controller.byobRequest = byobRequest;
  }
  return controller.byobRequest;
}

function ReadableByteStreamControllerGetDesiredSize(controller) {
  const state = controller.stream.state;
  if (state === "errored") return null;
  if (state === "closed") return 0;
  return controller.strategyHWM - controller.queueTotalSize;
}

function ReadableByteStreamControllerHandleQueueDrain(controller) {
  if (controller.queueTotalSize === 0 && controller.closeRequested) {
    ReadableByteStreamControllerClearAlgorithms(controller);
    ReadableStreamClose(controller.stream);
  } else {
    ReadableByteStreamControllerCallPullIfNeeded(controller);
  }
}

function ReadableByteStreamControllerInvalidateBYOBRequest(controller) {
  if (controller.byobRequest === null) return;
  controller.byobRequest.controller = undefined;
  controller.byobRequest.view = null;
  controller.byobRequest = null;
}

function ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller) {
  const filledPullIntos = [];
  while (controller.pendingPullIntos.size > 0) {
    if (controller.queueTotalSize === 0) break;
    const pullIntoDescriptor = controller.pendingPullIntos.peek();
    if (ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor)) {
      ReadableByteStreamControllerShiftPendingPullInto(controller);
      filledPullIntos.push(pullIntoDescriptor);
    }
  }
  return filledPullIntos;
}

function ReadableByteStreamControllerProcessReadRequestsUsingQueue(controller) {
  const reader = controller.stream.reader;
  while (reader.requests.size > 0) {
    if (controller.queueTotalSize === 0) return;
    const readRequest = reader.requests.shift();
    ReadableByteStreamControllerFillReadRequestFromQueue(controller, readRequest);
  }
}

function ReadableByteStreamControllerPullInto(controller, view, min, readIntoRequest) {
  const stream = controller.stream;
  const elementSize = view.elementSize;
  const ctor = view.constructor;
  const minimumFill = min * elementSize;
  const byteOffset = view.byteOffset;
  const byteLength = view.byteLength;
  let buffer;
  try {
    buffer = TransferArrayBuffer(view.buffer);
  } catch (error) {
    readIntoRequest.errorSteps(error);
    return;
  }
  const pullIntoDescriptor = new PullIntoDescriptor(buffer, arrayBufferByteLength(buffer), byteOffset, byteLength, 0, minimumFill, elementSize, ctor, "byob");
  if (controller.pendingPullIntos.size > 0) {
    controller.pendingPullIntos.push(pullIntoDescriptor);
    ReadableStreamAddReadIntoRequest(stream, readIntoRequest);
    return;
  }
  if (stream.state === "closed") {
    const emptyView = new ctor(pullIntoDescriptor.buffer, pullIntoDescriptor.byteOffset, 0);
    readIntoRequest.closeSteps(emptyView);
    return;
  }
  if (controller.queueTotalSize > 0) {
    if (ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor)) {
      const filledView = ReadableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor);
      ReadableByteStreamControllerHandleQueueDrain(controller);
      readIntoRequest.chunkSteps(filledView);
      return;
    }
    if (controller.closeRequested) {
      const e = new TypeError("the stream closed with too few bytes left to fill the view's minimum");
      ReadableByteStreamControllerError(controller, e);
      readIntoRequest.errorSteps(e);
      return;
    }
  }
  controller.pendingPullIntos.push(pullIntoDescriptor);
  ReadableStreamAddReadIntoRequest(stream, readIntoRequest);
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

function ReadableByteStreamControllerRespond(controller, bytesWritten) {
  const firstDescriptor = controller.pendingPullIntos.peek();
  const state = controller.stream.state;
  if (state === "closed") {
    if (bytesWritten !== 0) throw new TypeError("respond(): bytesWritten must be 0 once the stream is closed");
  } else {
    if (bytesWritten === 0) throw new TypeError("respond(): bytesWritten must be more than 0 while the stream is readable");
    if (firstDescriptor.bytesFilled + bytesWritten > firstDescriptor.byteLength) {
      throw new RangeError(`respond(): bytesWritten (${bytesWritten}) is more than the view has room for (${firstDescriptor.byteLength - firstDescriptor.bytesFilled})`);
    }
  }
  firstDescriptor.buffer = TransferArrayBuffer(firstDescriptor.buffer);
  ReadableByteStreamControllerRespondInternal(controller, bytesWritten);
}

function ReadableByteStreamControllerRespondInClosedState(controller, firstDescriptor) {
  if (firstDescriptor.readerType === "none") ReadableByteStreamControllerShiftPendingPullInto(controller);
  const stream = controller.stream;
  if (ReadableStreamHasBYOBReader(stream)) {
    const filledPullIntos = [];
    while (filledPullIntos.length < ReadableStreamGetNumReadIntoRequests(stream)) {
      filledPullIntos.push(ReadableByteStreamControllerShiftPendingPullInto(controller));
    }
    for (const filledPullInto of filledPullIntos) ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullInto);
  }
}

function ReadableByteStreamControllerRespondInReadableState(controller, bytesWritten, pullIntoDescriptor) {
  ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller, bytesWritten, pullIntoDescriptor);
  if (pullIntoDescriptor.readerType === "none") {
    ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, pullIntoDescriptor);
    const filledPullIntos = ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
    for (const filledPullInto of filledPullIntos) ReadableByteStreamControllerCommitPullIntoDescriptor(controller.stream, filledPullInto);
    return;
  }
  if (pullIntoDescriptor.bytesFilled < pullIntoDescriptor.minimumFill) return;
  ReadableByteStreamControllerShiftPendingPullInto(controller);
  const remainderSize = pullIntoDescriptor.bytesFilled % pullIntoDescriptor.elementSize;
  if (remainderSize > 0) {
    const end = pullIntoDescriptor.byteOffset + pullIntoDescriptor.bytesFilled;
    ReadableByteStreamControllerEnqueueClonedChunkToQueue(controller, pullIntoDescriptor.buffer, end - remainderSize, remainderSize);
  }
  pullIntoDescriptor.bytesFilled -= remainderSize;
  const filledPullIntos = ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
  ReadableByteStreamControllerCommitPullIntoDescriptor(controller.stream, pullIntoDescriptor);
  for (const filledPullInto of filledPullIntos) ReadableByteStreamControllerCommitPullIntoDescriptor(controller.stream, filledPullInto);
}

function ReadableByteStreamControllerRespondInternal(controller, bytesWritten) {
  const firstDescriptor = controller.pendingPullIntos.peek();
  ReadableByteStreamControllerInvalidateBYOBRequest(controller);
  const state = controller.stream.state;
  if (state === "closed") {
    ReadableByteStreamControllerRespondInClosedState(controller, firstDescriptor);
  } else {
    ReadableByteStreamControllerRespondInReadableState(controller, bytesWritten, firstDescriptor);
  }
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

function ReadableByteStreamControllerRespondWithNewView(controller, view) {
  const firstDescriptor = controller.pendingPullIntos.peek();
  const state = controller.stream.state;
  if (state === "closed") {
    if (view.byteLength !== 0) throw new TypeError("respondWithNewView(): the view must be empty once the stream is closed");
  } else if (view.byteLength === 0) {
    throw new TypeError("respondWithNewView(): the view must not be empty while the stream is readable");
  }
  if (firstDescriptor.byteOffset + firstDescriptor.bytesFilled !== view.byteOffset) {
    throw new RangeError("respondWithNewView(): the view must start where the BYOB request's view starts");
  }
  if (firstDescriptor.bufferByteLength !== arrayBufferByteLength(view.buffer)) {
    throw new RangeError("respondWithNewView(): the view's ArrayBuffer must be as long as the BYOB request's");
  }
  if (firstDescriptor.bytesFilled + view.byteLength > firstDescriptor.byteLength) {
    throw new RangeError("respondWithNewView(): the view is longer than the BYOB request's view");
  }
  const viewByteLength = view.byteLength;
  firstDescriptor.buffer = TransferArrayBuffer(view.buffer);
  ReadableByteStreamControllerRespondInternal(controller, viewByteLength);
}

function ReadableByteStreamControllerShiftPendingPullInto(controller) {
  return controller.pendingPullIntos.shift();
}

function ReadableByteStreamControllerShouldCallPull(controller) {
  const stream = controller.stream;
  if (stream.state !== "readable") return false;
  if (controller.closeRequested) return false;
  if (!controller.started) return false;
  if (ReadableStreamHasDefaultReader(stream) && ReadableStreamGetNumReadRequests(stream) > 0) return true;
  if (ReadableStreamHasBYOBReader(stream) && ReadableStreamGetNumReadIntoRequests(stream) > 0) return true;
  const desiredSize = ReadableByteStreamControllerGetDesiredSize(controller);
  return desiredSize > 0;
}

function SetUpReadableByteStreamController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, autoAllocateChunkSize) {
  controller.stream = stream;
  controller.pullAgain = false;
  controller.pulling = false;
  controller.byobRequest = null;
  ResetQueue(controller);
  controller.closeRequested = false;
  controller.started = false;
  controller.strategyHWM = highWaterMark;
  controller.pullAlgorithm = pullAlgorithm;
  controller.cancelAlgorithm = cancelAlgorithm;
  controller.autoAllocateChunkSize = autoAllocateChunkSize;
  controller.pendingPullIntos = new Queue();
  stream.controller = controller;
  const startResult = startAlgorithm();
  uponPromise(promiseResolvedWith(startResult), () => {
    controller.started = true;
    ReadableByteStreamControllerCallPullIfNeeded(controller);
  }, (r) => {
    ReadableByteStreamControllerError(controller, r);
  });
}

function SetUpReadableByteStreamControllerFromUnderlyingSource(stream, underlyingSource, underlyingSourceDict, highWaterMark) {
  const controller = new ReadableByteStreamControllerSlots();
  shell(ReadableByteStreamController, controller);
  let startAlgorithm = noop;
  let pullAlgorithm = resolvedUndefined;
  let cancelAlgorithm = resolvedUndefined;
  const { start, pull, cancel } = underlyingSourceDict;
  if (start !== undefined) startAlgorithm = () => reflectApply(start, underlyingSource, [controller.object]);
  if (pull !== undefined) pullAlgorithm = () => invokeReturningPromise1(pull, underlyingSource, controller.object);
  if (cancel !== undefined) cancelAlgorithm = (reason) => invokeReturningPromise(cancel, underlyingSource, [reason]);
  const autoAllocateChunkSize = underlyingSourceDict.autoAllocateChunkSize;
  if (autoAllocateChunkSize === 0) throw new TypeError("ReadableStream: underlyingSource.autoAllocateChunkSize must be more than 0");
  SetUpReadableByteStreamController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, autoAllocateChunkSize);
}

// ---- tee ---------------------------------------------------------------------------------------

function ReadableStreamTee(stream, cloneForBranch2) {
  if (stream.controller.byte) return ReadableByteStreamTee(stream);
  return ReadableStreamDefaultTee(stream, cloneForBranch2);
}

// A read request whose steps are the tee's own functions.
class StepsReadRequest {
  constructor(chunkSteps, closeSteps, errorSteps) {
    this.chunkSteps = chunkSteps;
    this.closeSteps = closeSteps;
    this.errorSteps = errorSteps;
  }
}

function ReadableStreamDefaultTee(stream, cloneForBranch2) {
  const reader = AcquireReadableStreamDefaultReader(stream);
  let reading = false;
  let readAgain = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1;
  let reason2;
  let branch1;
  let branch2;
  const cancelPromise = newPromise();
  const readRequest = new StepsReadRequest(
    (chunk) => {
      queueMicrotaskOriginal(() => {
        readAgain = false;
        const chunk1 = chunk;
        let chunk2 = chunk;
        if (!canceled2 && cloneForBranch2) {
          try {
            chunk2 = internals.get("structuredClone")(chunk2);
          } catch (cloneError) {
            ReadableStreamDefaultControllerError(branch1.controller, cloneError);
            ReadableStreamDefaultControllerError(branch2.controller, cloneError);
            cancelPromise.resolve(ReadableStreamCancel(stream, cloneError));
            return;
          }
        }
        if (!canceled1) ReadableStreamDefaultControllerEnqueue(branch1.controller, chunk1);
        if (!canceled2) ReadableStreamDefaultControllerEnqueue(branch2.controller, chunk2);
        reading = false;
        if (readAgain) pullAlgorithm();
      });
    },
    () => {
      reading = false;
      if (!canceled1) ReadableStreamDefaultControllerClose(branch1.controller);
      if (!canceled2) ReadableStreamDefaultControllerClose(branch2.controller);
      if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
    },
    () => {
      reading = false;
    },
  );
  const pullAlgorithm = () => {
    if (reading) {
      readAgain = true;
      return promiseResolvedWith(undefined);
    }
    reading = true;
    ReadableStreamDefaultReaderRead(reader, readRequest);
    return promiseResolvedWith(undefined);
  };
  const cancel1Algorithm = (reason) => {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) {
      const compositeReason = [reason1, reason2];
      const cancelResult = ReadableStreamCancel(stream, compositeReason);
      cancelPromise.resolve(cancelResult);
    }
    return cancelPromise.promise;
  };
  const cancel2Algorithm = (reason) => {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) {
      const compositeReason = [reason1, reason2];
      const cancelResult = ReadableStreamCancel(stream, compositeReason);
      cancelPromise.resolve(cancelResult);
    }
    return cancelPromise.promise;
  };
  branch1 = CreateReadableStream(noop, pullAlgorithm, cancel1Algorithm);
  branch2 = CreateReadableStream(noop, pullAlgorithm, cancel2Algorithm);
  uponRejection(reader.closed.promise, (r) => {
    ReadableStreamDefaultControllerError(branch1.controller, r);
    ReadableStreamDefaultControllerError(branch2.controller, r);
    if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
  });
  return [branch1, branch2];
}

function ReadableByteStreamTee(stream) {
  let reader = AcquireReadableStreamDefaultReader(stream);
  let reading = false;
  let readAgainForBranch1 = false;
  let readAgainForBranch2 = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1;
  let reason2;
  let branch1;
  let branch2;
  const cancelPromise = newPromise();
  const forwardReaderError = (thisReader) => {
    uponRejection(thisReader.closed.promise, (r) => {
      if (thisReader !== reader) return;
      ReadableByteStreamControllerError(branch1.controller, r);
      ReadableByteStreamControllerError(branch2.controller, r);
      if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
    });
  };
  const cloneError = (e) => {
    ReadableByteStreamControllerError(branch1.controller, e);
    ReadableByteStreamControllerError(branch2.controller, e);
    cancelPromise.resolve(ReadableStreamCancel(stream, e));
  };
  const pullWithDefaultReader = () => {
    if (reader.byob) {
      ReadableStreamBYOBReaderRelease(reader);
      reader = AcquireReadableStreamDefaultReader(stream);
      forwardReaderError(reader);
    }
    const readRequest = new StepsReadRequest(
      (chunk) => {
        queueMicrotaskOriginal(() => {
          readAgainForBranch1 = false;
          readAgainForBranch2 = false;
          const chunk1 = chunk;
          let chunk2 = chunk;
          if (!canceled1 && !canceled2) {
            try {
              chunk2 = CloneAsUint8Array(chunk);
            } catch (e) {
              cloneError(e);
              return;
            }
          }
          if (!canceled1) ReadableByteStreamControllerEnqueue(branch1.controller, viewInfo(chunk1));
          if (!canceled2) ReadableByteStreamControllerEnqueue(branch2.controller, viewInfo(chunk2));
          reading = false;
          if (readAgainForBranch1) pull1Algorithm();
          else if (readAgainForBranch2) pull2Algorithm();
        });
      },
      () => {
        reading = false;
        if (!canceled1) ReadableByteStreamControllerClose(branch1.controller);
        if (!canceled2) ReadableByteStreamControllerClose(branch2.controller);
        if (branch1.controller.pendingPullIntos.size > 0) ReadableByteStreamControllerRespond(branch1.controller, 0);
        if (branch2.controller.pendingPullIntos.size > 0) ReadableByteStreamControllerRespond(branch2.controller, 0);
        if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
      },
      () => {
        reading = false;
      },
    );
    ReadableStreamDefaultReaderRead(reader, readRequest);
  };
  const pullWithBYOBReader = (view, forBranch2) => {
    if (!reader.byob) {
      ReadableStreamDefaultReaderRelease(reader);
      reader = AcquireReadableStreamBYOBReader(stream);
      forwardReaderError(reader);
    }
    const byobBranch = forBranch2 ? branch2 : branch1;
    const otherBranch = forBranch2 ? branch1 : branch2;
    const readIntoRequest = new StepsReadRequest(
      (chunk) => {
        queueMicrotaskOriginal(() => {
          readAgainForBranch1 = false;
          readAgainForBranch2 = false;
          const byobCanceled = forBranch2 ? canceled2 : canceled1;
          const otherCanceled = forBranch2 ? canceled1 : canceled2;
          if (!otherCanceled) {
            let clonedChunk;
            try {
              clonedChunk = CloneAsUint8Array(chunk);
            } catch (e) {
              cloneError(e);
              return;
            }
            if (!byobCanceled) ReadableByteStreamControllerRespondWithNewView(byobBranch.controller, viewInfo(chunk));
            ReadableByteStreamControllerEnqueue(otherBranch.controller, viewInfo(clonedChunk));
          } else if (!byobCanceled) {
            ReadableByteStreamControllerRespondWithNewView(byobBranch.controller, viewInfo(chunk));
          }
          reading = false;
          if (readAgainForBranch1) pull1Algorithm();
          else if (readAgainForBranch2) pull2Algorithm();
        });
      },
      (chunk) => {
        reading = false;
        const byobCanceled = forBranch2 ? canceled2 : canceled1;
        const otherCanceled = forBranch2 ? canceled1 : canceled2;
        if (!byobCanceled) ReadableByteStreamControllerClose(byobBranch.controller);
        if (!otherCanceled) ReadableByteStreamControllerClose(otherBranch.controller);
        if (chunk !== undefined) {
          if (!byobCanceled) ReadableByteStreamControllerRespondWithNewView(byobBranch.controller, viewInfo(chunk));
          if (!otherCanceled && otherBranch.controller.pendingPullIntos.size > 0) {
            ReadableByteStreamControllerRespond(otherBranch.controller, 0);
          }
        }
        if (!byobCanceled || !otherCanceled) cancelPromise.resolve(undefined);
      },
      () => {
        reading = false;
      },
    );
    ReadableStreamBYOBReaderRead(reader, view, 1, readIntoRequest);
  };
  const pull1Algorithm = () => {
    if (reading) {
      readAgainForBranch1 = true;
      return promiseResolvedWith(undefined);
    }
    reading = true;
    const byobRequest = ReadableByteStreamControllerGetBYOBRequest(branch1.controller);
    if (byobRequest === null) pullWithDefaultReader();
    else pullWithBYOBReader(viewInfo(byobRequest.view), false);
    return promiseResolvedWith(undefined);
  };
  const pull2Algorithm = () => {
    if (reading) {
      readAgainForBranch2 = true;
      return promiseResolvedWith(undefined);
    }
    reading = true;
    const byobRequest = ReadableByteStreamControllerGetBYOBRequest(branch2.controller);
    if (byobRequest === null) pullWithDefaultReader();
    else pullWithBYOBReader(viewInfo(byobRequest.view), true);
    return promiseResolvedWith(undefined);
  };
  const cancel1Algorithm = (reason) => {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) {
      const compositeReason = [reason1, reason2];
      const cancelResult = ReadableStreamCancel(stream, compositeReason);
      cancelPromise.resolve(cancelResult);
    }
    return cancelPromise.promise;
  };
  const cancel2Algorithm = (reason) => {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) {
      const compositeReason = [reason1, reason2];
      const cancelResult = ReadableStreamCancel(stream, compositeReason);
      cancelPromise.resolve(cancelResult);
    }
    return cancelPromise.promise;
  };
  branch1 = CreateReadableByteStream(noop, pull1Algorithm, cancel1Algorithm);
  branch2 = CreateReadableByteStream(noop, pull2Algorithm, cancel2Algorithm);
  forwardReaderError(reader);
  return [branch1, branch2];
}

function CloneAsUint8Array(view) {
  const info = viewInfo(view);
  const buffer = CloneArrayBuffer(info.buffer, info.byteOffset, info.byteLength);
  return new Uint8ArrayCtor(buffer);
}

// ---- pipeTo ------------------------------------------------------------------------------------

// The read request of a pipe's loop: a chunk is written at once, then the loop goes on.
class PipeReadRequest {
  constructor(pipe) {
    this.pipe = pipe;
  }

  // The chunk is written a microtask later, never inside the enqueue() that delivered it
  // (whatwg/streams#1243: a sink's write must not run synchronously within enqueue()); the write
  // is the pipe's current write from now on, so a shutdown waits for it.
  chunkSteps(chunk) {
    const pipe = this.pipe;
    pipe.currentWrite = transformPromiseWith(promiseResolvedWith(undefined), () => {
      if (pipe.writer.stream === undefined) return undefined;
      const written = transformPromiseWith(WritableStreamDefaultWriterWrite(pipe.writer, chunk), undefined, noop);
      pipe.step();
      return written;
    });
  }

  closeSteps() {
    this.pipe.reading = false;
  }

  errorSteps() {
    this.pipe.reading = false;
  }
}

class Pipe {
  constructor(source, dest, preventClose, preventAbort, preventCancel, signal) {
    this.source = source;
    this.dest = dest;
    this.preventClose = preventClose;
    this.preventAbort = preventAbort;
    this.preventCancel = preventCancel;
    this.signal = signal;
    this.reader = AcquireReadableStreamDefaultReader(source);
    this.writer = AcquireWritableStreamDefaultWriter(dest);
    this.shuttingDown = false;
    this.currentWrite = promiseResolvedWith(undefined);
    this.promise = newPromise();
    this.abortAlgorithm = undefined;
    this.readRequest = new PipeReadRequest(this);
    this.reading = false;
  }

  // One step of "read all chunks from source and write them to dest", respecting backpressure:
  // wait until the writer is ready, then read.
  step() {
    if (this.shuttingDown) return;
    const ready = this.writer.ready;
    // A writer already ready needs no wait (the step runs in a microtask of its own already).
    if (ready.fulfilled) {
      this.reading = true;
      ReadableStreamDefaultReaderRead(this.reader, this.readRequest);
      return;
    }
    uponPromise(ready.promise, () => {
      if (this.shuttingDown) return;
      this.reading = true;
      ReadableStreamDefaultReaderRead(this.reader, this.readRequest);
    }, noop);
  }

  waitForWritesToFinish() {
    const oldCurrentWrite = this.currentWrite;
    return transformPromiseWith(this.currentWrite, () => (oldCurrentWrite !== this.currentWrite ? this.waitForWritesToFinish() : undefined));
  }

  shutdownWithAction(action, originalIsError, originalError) {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    const doTheRest = () => {
      uponPromise(action(), () => this.finalize(originalIsError, originalError), (newError) => this.finalize(true, newError));
    };
    if (this.dest.state === "writable" && !WritableStreamCloseQueuedOrInFlight(this.dest)) {
      uponFulfillment(this.waitForWritesToFinish(), doTheRest);
    } else {
      doTheRest();
    }
  }

  shutdown(isError, error) {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    if (this.dest.state === "writable" && !WritableStreamCloseQueuedOrInFlight(this.dest)) {
      uponFulfillment(this.waitForWritesToFinish(), () => this.finalize(isError, error));
    } else {
      this.finalize(isError, error);
    }
  }

  finalize(isError, error) {
    WritableStreamDefaultWriterRelease(this.writer);
    ReadableStreamDefaultReaderRelease(this.reader);
    if (this.signal !== undefined) internals.get("removeAbortAlgorithm")(this.signal, this.abortAlgorithm);
    if (isError) this.promise.reject(error);
    else this.promise.resolve(undefined);
  }
}

// AbortSignal's own getters, taken once from the events group (whatever a program has since
// replaced on its prototype).
const abortSignalGetters = new Map();
function abortSignalGetter(name) {
  let getter = abortSignalGetters.get(name);
  if (getter === undefined) {
    getter = Object.getOwnPropertyDescriptor(internals.get("AbortSignal").prototype, name).get;
    abortSignalGetters.set(name, getter);
  }
  return getter;
}

function ReadableStreamPipeTo(source, dest, preventClose, preventAbort, preventCancel, signal = undefined) {
  const pipe = new Pipe(source, dest, preventClose, preventAbort, preventCancel, signal);
  source.disturbed = true;
  if (signal !== undefined) {
    pipe.abortAlgorithm = () => {
      const error = abortSignalGetter("reason").call(signal);
      const actions = [];
      if (!preventAbort) {
        actions.push(() => (dest.state === "writable" ? WritableStreamAbort(dest, error) : promiseResolvedWith(undefined)));
      }
      if (!preventCancel) {
        actions.push(() => (source.state === "readable" ? ReadableStreamCancel(source, error) : promiseResolvedWith(undefined)));
      }
      pipe.shutdownWithAction(() => PromiseCtor.all(actions.map((action) => action())), true, error);
    };
    if (abortSignalGetter("aborted").call(signal)) {
      pipe.abortAlgorithm();
      return pipe.promise.promise;
    }
    internals.get("addAbortAlgorithm")(signal, pipe.abortAlgorithm);
  }

  // Errors must be propagated forward.
  const onSourceErrored = (storedError) => {
    if (!preventAbort) pipe.shutdownWithAction(() => WritableStreamAbort(dest, storedError), true, storedError);
    else pipe.shutdown(true, storedError);
  };
  // Errors must be propagated backward.
  const onDestErrored = (storedError) => {
    if (!preventCancel) pipe.shutdownWithAction(() => ReadableStreamCancel(source, storedError), true, storedError);
    else pipe.shutdown(true, storedError);
  };
  // Closing must be propagated forward.
  const onSourceClosed = () => {
    if (!preventClose) pipe.shutdownWithAction(() => WritableStreamDefaultWriterCloseWithErrorPropagation(pipe.writer), false, undefined);
    else pipe.shutdown(false, undefined);
  };

  if (source.state === "errored") onSourceErrored(source.storedError);
  else uponRejection(pipe.reader.closed.promise, onSourceErrored);
  if (dest.state === "errored") onDestErrored(dest.storedError);
  else uponRejection(pipe.writer.closed.promise, onDestErrored);
  if (source.state === "closed") onSourceClosed();
  else uponFulfillment(pipe.reader.closed.promise, onSourceClosed);
  // Closing must be propagated backward.
  if (WritableStreamCloseQueuedOrInFlight(dest) || dest.state === "closed") {
    const destClosed = new TypeError("the destination WritableStream closed before all the data could be piped to it");
    if (!preventCancel) pipe.shutdownWithAction(() => ReadableStreamCancel(source, destClosed), true, destClosed);
    else pipe.shutdown(true, destClosed);
  }
  // The loop starts a microtask later: pipeTo() itself reads nothing.
  uponPromise(promiseResolvedWith(undefined), () => pipe.step(), noop);
  return pipe.promise.promise;
}

// ---- WritableStream: abstract operations -------------------------------------------------------

function AcquireWritableStreamDefaultWriter(stream) {
  const writer = new WritableStreamDefaultWriterSlots();
  SetUpWritableStreamDefaultWriter(writer, stream);
  shell(WritableStreamDefaultWriter, writer);
  return writer;
}

function CreateWritableStream(startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark = 1, sizeAlgorithm = sizeOne) {
  const stream = new WritableStreamSlots();
  shell(WritableStream, stream);
  const controller = new WritableStreamDefaultControllerSlots();
  shell(WritableStreamDefaultController, controller);
  SetUpWritableStreamDefaultController(stream, controller, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm);
  return stream;
}

function IsWritableStreamLocked(stream) {
  return stream.writer !== undefined;
}

function SetUpWritableStreamDefaultWriter(writer, stream) {
  if (IsWritableStreamLocked(stream)) throw new TypeError("the WritableStream is locked to a writer already");
  writer.stream = stream;
  stream.writer = writer;
  const state = stream.state;
  if (state === "writable") {
    if (!WritableStreamCloseQueuedOrInFlight(stream) && stream.backpressure) writer.ready = newPromise();
    else writer.ready = resolvedDeferred(undefined);
    writer.closed = newPromise();
  } else if (state === "erroring") {
    writer.ready = rejectedDeferred(stream.storedError);
    writer.closed = newPromise();
  } else if (state === "closed") {
    writer.ready = resolvedDeferred(undefined);
    writer.closed = resolvedDeferred(undefined);
  } else {
    const storedError = stream.storedError;
    writer.ready = rejectedDeferred(storedError);
    writer.closed = rejectedDeferred(storedError);
  }
}

function WritableStreamAbort(stream, reason) {
  if (stream.state === "closed" || stream.state === "errored") return promiseResolvedWith(undefined);
  internals.get("signalAbort")(stream.controller.abortController.signal, reason);
  const state = stream.state;
  if (state === "closed" || state === "errored") return promiseResolvedWith(undefined);
  if (stream.pendingAbortRequest !== undefined) return stream.pendingAbortRequest.promise.promise;
  let wasAlreadyErroring = false;
  if (state === "erroring") {
    wasAlreadyErroring = true;
    reason = undefined;
  }
  const promise = newPromise();
  stream.pendingAbortRequest = { promise, reason, wasAlreadyErroring };
  if (!wasAlreadyErroring) WritableStreamStartErroring(stream, reason);
  return promise.promise;
}

function WritableStreamClose(stream) {
  const state = stream.state;
  if (state === "closed" || state === "errored") {
    return promiseRejectedWith(new TypeError(`cannot close a WritableStream that is ${state} already`));
  }
  const promise = newPromise();
  stream.closeRequest = promise;
  const writer = stream.writer;
  if (writer !== undefined && stream.backpressure && state === "writable") writer.ready.resolve(undefined);
  WritableStreamDefaultControllerClose(stream.controller);
  return promise.promise;
}

function WritableStreamAddWriteRequest(stream) {
  const promise = newPromise();
  stream.writeRequests.push(promise);
  return promise.promise;
}

function WritableStreamCloseQueuedOrInFlight(stream) {
  return stream.closeRequest !== undefined || stream.inFlightCloseRequest !== undefined;
}

function WritableStreamDealWithRejection(stream, error) {
  const state = stream.state;
  if (state === "writable") {
    WritableStreamStartErroring(stream, error);
    return;
  }
  WritableStreamFinishErroring(stream);
}

function WritableStreamFinishErroring(stream) {
  stream.state = "errored";
  ResetQueue(stream.controller); // the controller's [[ErrorSteps]]
  const storedError = stream.storedError;
  const writeRequests = stream.writeRequests.drain();
  for (const writeRequest of writeRequests) writeRequest.reject(storedError);
  if (stream.pendingAbortRequest === undefined) {
    WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  const abortRequest = stream.pendingAbortRequest;
  stream.pendingAbortRequest = undefined;
  if (abortRequest.wasAlreadyErroring) {
    abortRequest.promise.reject(storedError);
    WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  const promise = WritableStreamDefaultControllerAbortSteps(stream.controller, abortRequest.reason);
  uponPromise(promise, () => {
    abortRequest.promise.resolve(undefined);
    WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
  }, (reason) => {
    abortRequest.promise.reject(reason);
    WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
  });
}

function WritableStreamFinishInFlightClose(stream) {
  stream.inFlightCloseRequest.resolve(undefined);
  stream.inFlightCloseRequest = undefined;
  const state = stream.state;
  if (state === "erroring") {
    stream.storedError = undefined;
    if (stream.pendingAbortRequest !== undefined) {
      stream.pendingAbortRequest.promise.resolve(undefined);
      stream.pendingAbortRequest = undefined;
    }
  }
  stream.state = "closed";
  const writer = stream.writer;
  if (writer !== undefined) writer.closed.resolve(undefined);
}

function WritableStreamFinishInFlightCloseWithError(stream, error) {
  stream.inFlightCloseRequest.reject(error);
  stream.inFlightCloseRequest = undefined;
  if (stream.pendingAbortRequest !== undefined) {
    stream.pendingAbortRequest.promise.reject(error);
    stream.pendingAbortRequest = undefined;
  }
  WritableStreamDealWithRejection(stream, error);
}

function WritableStreamFinishInFlightWrite(stream) {
  stream.inFlightWriteRequest.resolve(undefined);
  stream.inFlightWriteRequest = undefined;
}

function WritableStreamFinishInFlightWriteWithError(stream, error) {
  stream.inFlightWriteRequest.reject(error);
  stream.inFlightWriteRequest = undefined;
  WritableStreamDealWithRejection(stream, error);
}

function WritableStreamHasOperationMarkedInFlight(stream) {
  return stream.inFlightWriteRequest !== undefined || stream.inFlightCloseRequest !== undefined;
}

function WritableStreamMarkCloseRequestInFlight(stream) {
  stream.inFlightCloseRequest = stream.closeRequest;
  stream.closeRequest = undefined;
}

function WritableStreamMarkFirstWriteRequestInFlight(stream) {
  stream.inFlightWriteRequest = stream.writeRequests.shift();
}

function WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream) {
  if (stream.closeRequest !== undefined) {
    stream.closeRequest.reject(stream.storedError);
    stream.closeRequest = undefined;
  }
  const writer = stream.writer;
  if (writer !== undefined) {
    writer.closed.reject(stream.storedError);
    setPromiseIsHandledToTrue(writer.closed.promise);
  }
}

function WritableStreamStartErroring(stream, reason) {
  const controller = stream.controller;
  stream.state = "erroring";
  stream.storedError = reason;
  const writer = stream.writer;
  if (writer !== undefined) WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, reason);
  if (!WritableStreamHasOperationMarkedInFlight(stream) && controller.started) WritableStreamFinishErroring(stream);
}

function WritableStreamUpdateBackpressure(stream, backpressure) {
  const writer = stream.writer;
  if (writer !== undefined && backpressure !== stream.backpressure) {
    if (backpressure) writer.ready = newPromise();
    else writer.ready.resolve(undefined);
  }
  stream.backpressure = backpressure;
}

// ---- WritableStreamDefaultWriter: abstract operations ------------------------------------------

function WritableStreamDefaultWriterCloseWithErrorPropagation(writer) {
  const stream = writer.stream;
  const state = stream.state;
  if (WritableStreamCloseQueuedOrInFlight(stream) || state === "closed") return promiseResolvedWith(undefined);
  if (state === "errored") return promiseRejectedWith(stream.storedError);
  return WritableStreamClose(stream);
}

function WritableStreamDefaultWriterEnsureClosedPromiseRejected(writer, error) {
  if (!writer.closed.settled) writer.closed.reject(error);
  else writer.closed = rejectedDeferred(error);
  setPromiseIsHandledToTrue(writer.closed.promise);
}

function WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, error) {
  if (!writer.ready.settled) writer.ready.reject(error);
  else writer.ready = rejectedDeferred(error);
  setPromiseIsHandledToTrue(writer.ready.promise);
}

function WritableStreamDefaultWriterGetDesiredSize(writer) {
  const stream = writer.stream;
  const state = stream.state;
  if (state === "errored" || state === "erroring") return null;
  if (state === "closed") return 0;
  return WritableStreamDefaultControllerGetDesiredSize(stream.controller);
}

function WritableStreamDefaultWriterRelease(writer) {
  const stream = writer.stream;
  const releasedError = new TypeError("the writer's lock on the stream was released");
  WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, releasedError);
  WritableStreamDefaultWriterEnsureClosedPromiseRejected(writer, releasedError);
  stream.writer = undefined;
  writer.stream = undefined;
}

function WritableStreamDefaultWriterWrite(writer, chunk) {
  const stream = writer.stream;
  const controller = stream.controller;
  const chunkSize = WritableStreamDefaultControllerGetChunkSize(controller, chunk);
  if (stream !== writer.stream) return promiseRejectedWith(new TypeError("the writer's lock on the stream was released while the chunk's size was computed"));
  const state = stream.state;
  if (state === "errored") return promiseRejectedWith(stream.storedError);
  if (WritableStreamCloseQueuedOrInFlight(stream) || state === "closed") {
    return promiseRejectedWith(new TypeError("cannot write to a WritableStream that is closing or closed"));
  }
  if (state === "erroring") return promiseRejectedWith(stream.storedError);
  const promise = WritableStreamAddWriteRequest(stream);
  WritableStreamDefaultControllerWrite(controller, chunk, chunkSize);
  return promise;
}

// ---- WritableStreamDefaultController: abstract operations --------------------------------------

function WritableStreamDefaultControllerAbortSteps(controller, reason) {
  const result = controller.abortAlgorithm(reason);
  WritableStreamDefaultControllerClearAlgorithms(controller);
  return result;
}

function SetUpWritableStreamDefaultController(stream, controller, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm) {
  controller.stream = stream;
  stream.controller = controller;
  ResetQueue(controller);
  controller.abortController = new (internals.get("AbortController"))();
  controller.started = false;
  controller.strategySizeAlgorithm = sizeAlgorithm;
  controller.strategyHWM = highWaterMark;
  controller.writeAlgorithm = writeAlgorithm;
  controller.closeAlgorithm = closeAlgorithm;
  controller.abortAlgorithm = abortAlgorithm;
  const backpressure = WritableStreamDefaultControllerGetBackpressure(controller);
  WritableStreamUpdateBackpressure(stream, backpressure);
  const startResult = startAlgorithm();
  const startPromise = promiseResolvedWith(startResult);
  uponPromise(startPromise, () => {
    controller.started = true;
    WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
  }, (r) => {
    controller.started = true;
    WritableStreamDealWithRejection(stream, r);
  });
}

function SetUpWritableStreamDefaultControllerFromUnderlyingSink(stream, underlyingSink, underlyingSinkDict, highWaterMark, sizeAlgorithm) {
  const controller = new WritableStreamDefaultControllerSlots();
  shell(WritableStreamDefaultController, controller);
  let startAlgorithm = noop;
  let writeAlgorithm = resolvedUndefined;
  let closeAlgorithm = resolvedUndefined;
  let abortAlgorithm = resolvedUndefined;
  const { start, write, close, abort } = underlyingSinkDict;
  if (start !== undefined) startAlgorithm = () => reflectApply(start, underlyingSink, [controller.object]);
  if (write !== undefined) writeAlgorithm = (chunk) => invokeReturningPromise2(write, underlyingSink, chunk, controller.object);
  if (close !== undefined) closeAlgorithm = () => invokeReturningPromise(close, underlyingSink, []);
  if (abort !== undefined) abortAlgorithm = (reason) => invokeReturningPromise(abort, underlyingSink, [reason]);
  SetUpWritableStreamDefaultController(stream, controller, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm);
}

function WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller) {
  const stream = controller.stream;
  if (!controller.started) return;
  if (stream.inFlightWriteRequest !== undefined) return;
  const state = stream.state;
  if (state === "erroring") {
    WritableStreamFinishErroring(stream);
    return;
  }
  if (controller.queue.size === 0) return;
  const value = PeekQueueValue(controller);
  if (value === closeSentinel) WritableStreamDefaultControllerProcessClose(controller);
  else WritableStreamDefaultControllerProcessWrite(controller, value);
}

function WritableStreamDefaultControllerClearAlgorithms(controller) {
  controller.writeAlgorithm = undefined;
  controller.closeAlgorithm = undefined;
  controller.abortAlgorithm = undefined;
  controller.strategySizeAlgorithm = undefined;
}

function WritableStreamDefaultControllerClose(controller) {
  EnqueueValueWithSize(controller, closeSentinel, 0);
  WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
}

function WritableStreamDefaultControllerError(controller, error) {
  const stream = controller.stream;
  WritableStreamDefaultControllerClearAlgorithms(controller);
  WritableStreamStartErroring(stream, error);
}

function WritableStreamDefaultControllerErrorIfNeeded(controller, error) {
  if (controller.stream.state === "writable") WritableStreamDefaultControllerError(controller, error);
}

function WritableStreamDefaultControllerGetBackpressure(controller) {
  const desiredSize = WritableStreamDefaultControllerGetDesiredSize(controller);
  return desiredSize <= 0;
}

function WritableStreamDefaultControllerGetChunkSize(controller, chunk) {
  if (controller.strategySizeAlgorithm === undefined) return 1;
  try {
    return controller.strategySizeAlgorithm(chunk);
  } catch (chunkSizeError) {
    WritableStreamDefaultControllerErrorIfNeeded(controller, chunkSizeError);
    return 1;
  }
}

function WritableStreamDefaultControllerGetDesiredSize(controller) {
  return controller.strategyHWM - controller.queueTotalSize;
}

function WritableStreamDefaultControllerProcessClose(controller) {
  const stream = controller.stream;
  WritableStreamMarkCloseRequestInFlight(stream);
  DequeueValue(controller);
  const sinkClosePromise = controller.closeAlgorithm();
  WritableStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(sinkClosePromise, () => {
    WritableStreamFinishInFlightClose(stream);
  }, (reason) => {
    WritableStreamFinishInFlightCloseWithError(stream, reason);
  });
}

function WritableStreamDefaultControllerProcessWrite(controller, chunk) {
  const stream = controller.stream;
  WritableStreamMarkFirstWriteRequestInFlight(stream);
  const sinkWritePromise = controller.writeAlgorithm(chunk);
  uponPromise(sinkWritePromise, () => {
    WritableStreamFinishInFlightWrite(stream);
    const state = stream.state;
    DequeueValue(controller);
    if (!WritableStreamCloseQueuedOrInFlight(stream) && state === "writable") {
      const backpressure = WritableStreamDefaultControllerGetBackpressure(controller);
      WritableStreamUpdateBackpressure(stream, backpressure);
    }
    WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
  }, (reason) => {
    if (stream.state === "writable") WritableStreamDefaultControllerClearAlgorithms(controller);
    WritableStreamFinishInFlightWriteWithError(stream, reason);
  });
}

function WritableStreamDefaultControllerWrite(controller, chunk, chunkSize) {
  try {
    EnqueueValueWithSize(controller, chunk, chunkSize);
  } catch (enqueueError) {
    WritableStreamDefaultControllerErrorIfNeeded(controller, enqueueError);
    return;
  }
  const stream = controller.stream;
  if (!WritableStreamCloseQueuedOrInFlight(stream) && stream.state === "writable") {
    const backpressure = WritableStreamDefaultControllerGetBackpressure(controller);
    WritableStreamUpdateBackpressure(stream, backpressure);
  }
  WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
}

// ---- TransformStream: abstract operations ------------------------------------------------------

function InitializeTransformStream(stream, startPromise, writableHighWaterMark, writableSizeAlgorithm, readableHighWaterMark, readableSizeAlgorithm) {
  const startAlgorithm = () => startPromise;
  const writeAlgorithm = (chunk) => TransformStreamDefaultSinkWriteAlgorithm(stream, chunk);
  const abortAlgorithm = (reason) => TransformStreamDefaultSinkAbortAlgorithm(stream, reason);
  const closeAlgorithm = () => TransformStreamDefaultSinkCloseAlgorithm(stream);
  stream.writable = CreateWritableStream(startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, writableHighWaterMark, writableSizeAlgorithm);
  const pullAlgorithm = () => TransformStreamDefaultSourcePullAlgorithm(stream);
  const cancelAlgorithm = (reason) => TransformStreamDefaultSourceCancelAlgorithm(stream, reason);
  stream.readable = CreateReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, readableHighWaterMark, readableSizeAlgorithm);
  stream.backpressure = undefined;
  stream.backpressureChangePromise = undefined;
  TransformStreamSetBackpressure(stream, true);
  stream.controller = undefined;
}

function TransformStreamError(stream, e) {
  ReadableStreamDefaultControllerError(stream.readable.controller, e);
  TransformStreamErrorWritableAndUnblockWrite(stream, e);
}

function TransformStreamErrorWritableAndUnblockWrite(stream, e) {
  TransformStreamDefaultControllerClearAlgorithms(stream.controller);
  WritableStreamDefaultControllerErrorIfNeeded(stream.writable.controller, e);
  TransformStreamUnblockWrite(stream);
}

function TransformStreamSetBackpressure(stream, backpressure) {
  if (stream.backpressureChangePromise !== undefined) stream.backpressureChangePromise.resolve(undefined);
  stream.backpressureChangePromise = newPromise();
  stream.backpressure = backpressure;
}

function TransformStreamUnblockWrite(stream) {
  if (stream.backpressure) TransformStreamSetBackpressure(stream, false);
}

function SetUpTransformStreamDefaultController(stream, controller, transformAlgorithm, flushAlgorithm, cancelAlgorithm) {
  controller.stream = stream;
  stream.controller = controller;
  controller.transformAlgorithm = transformAlgorithm;
  controller.flushAlgorithm = flushAlgorithm;
  controller.cancelAlgorithm = cancelAlgorithm;
}

function SetUpTransformStreamDefaultControllerFromTransformer(stream, transformer, transformerDict) {
  const controller = new TransformStreamDefaultControllerSlots();
  shell(TransformStreamDefaultController, controller);
  let transformAlgorithm = (chunk) => {
    try {
      TransformStreamDefaultControllerEnqueue(controller, chunk);
    } catch (error) {
      return promiseRejectedWith(error);
    }
    return promiseResolvedWith(undefined);
  };
  let flushAlgorithm = resolvedUndefined;
  let cancelAlgorithm = resolvedUndefined;
  const { transform, flush, cancel } = transformerDict;
  if (transform !== undefined) transformAlgorithm = (chunk) => invokeReturningPromise2(transform, transformer, chunk, controller.object);
  if (flush !== undefined) flushAlgorithm = () => invokeReturningPromise(flush, transformer, [controller.object]);
  if (cancel !== undefined) cancelAlgorithm = (reason) => invokeReturningPromise(cancel, transformer, [reason]);
  SetUpTransformStreamDefaultController(stream, controller, transformAlgorithm, flushAlgorithm, cancelAlgorithm);
}

function TransformStreamDefaultControllerClearAlgorithms(controller) {
  controller.transformAlgorithm = undefined;
  controller.flushAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
}

function TransformStreamDefaultControllerEnqueue(controller, chunk) {
  const stream = controller.stream;
  const readableController = stream.readable.controller;
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(readableController)) {
    throw new TypeError("enqueue(): the TransformStream's readable side is closed or errored");
  }
  try {
    ReadableStreamDefaultControllerEnqueue(readableController, chunk);
  } catch (e) {
    TransformStreamErrorWritableAndUnblockWrite(stream, e);
    throw stream.readable.storedError;
  }
  const backpressure = ReadableStreamDefaultControllerHasBackpressure(readableController);
  if (backpressure !== stream.backpressure) TransformStreamSetBackpressure(stream, true);
}

function TransformStreamDefaultControllerError(controller, e) {
  TransformStreamError(controller.stream, e);
}

function TransformStreamDefaultControllerPerformTransform(controller, chunk) {
  const transformPromise = controller.transformAlgorithm(chunk);
  return transformPromiseWith(transformPromise, undefined, (r) => {
    TransformStreamError(controller.stream, r);
    throw r;
  });
}

function TransformStreamDefaultControllerTerminate(controller) {
  const stream = controller.stream;
  const readableController = stream.readable.controller;
  ReadableStreamDefaultControllerClose(readableController);
  const error = new TypeError("the TransformStream was terminated");
  TransformStreamErrorWritableAndUnblockWrite(stream, error);
}

function TransformStreamDefaultSinkWriteAlgorithm(stream, chunk) {
  const controller = stream.controller;
  if (stream.backpressure) {
    const backpressureChangePromise = stream.backpressureChangePromise.promise;
    return transformPromiseWith(backpressureChangePromise, () => {
      const writable = stream.writable;
      const state = writable.state;
      if (state === "erroring") throw writable.storedError;
      return TransformStreamDefaultControllerPerformTransform(controller, chunk);
    });
  }
  return TransformStreamDefaultControllerPerformTransform(controller, chunk);
}

function TransformStreamDefaultSinkAbortAlgorithm(stream, reason) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const readable = stream.readable;
  controller.finishPromise = newPromise();
  const cancelPromise = controller.cancelAlgorithm(reason);
  TransformStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(cancelPromise, () => {
    if (readable.state === "errored") {
      controller.finishPromise.reject(readable.storedError);
    } else {
      ReadableStreamDefaultControllerError(readable.controller, reason);
      controller.finishPromise.resolve(undefined);
    }
  }, (r) => {
    ReadableStreamDefaultControllerError(readable.controller, r);
    controller.finishPromise.reject(r);
  });
  return controller.finishPromise.promise;
}

function TransformStreamDefaultSinkCloseAlgorithm(stream) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const readable = stream.readable;
  controller.finishPromise = newPromise();
  const flushPromise = controller.flushAlgorithm();
  TransformStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(flushPromise, () => {
    if (readable.state === "errored") {
      controller.finishPromise.reject(readable.storedError);
    } else {
      ReadableStreamDefaultControllerClose(readable.controller);
      controller.finishPromise.resolve(undefined);
    }
  }, (r) => {
    ReadableStreamDefaultControllerError(readable.controller, r);
    controller.finishPromise.reject(r);
  });
  return controller.finishPromise.promise;
}

function TransformStreamDefaultSourceCancelAlgorithm(stream, reason) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const writable = stream.writable;
  controller.finishPromise = newPromise();
  const cancelPromise = controller.cancelAlgorithm(reason);
  TransformStreamDefaultControllerClearAlgorithms(controller);
  uponPromise(cancelPromise, () => {
    if (writable.state === "errored") {
      controller.finishPromise.reject(writable.storedError);
    } else {
      WritableStreamDefaultControllerErrorIfNeeded(writable.controller, reason);
      TransformStreamUnblockWrite(stream);
      controller.finishPromise.resolve(undefined);
    }
  }, (r) => {
    WritableStreamDefaultControllerErrorIfNeeded(writable.controller, r);
    TransformStreamUnblockWrite(stream);
    controller.finishPromise.reject(r);
  });
  return controller.finishPromise.promise;
}

function TransformStreamDefaultSourcePullAlgorithm(stream) {
  TransformStreamSetBackpressure(stream, false);
  return stream.backpressureChangePromise.promise;
}

// ---- The interfaces ----------------------------------------------------------------------------

// UnderlyingSource, read in Web IDL's order (lexicographic): autoAllocateChunkSize, cancel, pull,
// start, type.
function convertUnderlyingSource(source, what) {
  if (source === null) return {};
  const autoAllocate = source.autoAllocateChunkSize;
  const autoAllocateChunkSize = autoAllocate === undefined
    ? undefined : enforceRangeUnsignedLongLong(autoAllocate, `${what}: underlyingSource.autoAllocateChunkSize`);
  const cancel = callbackMember(source, "cancel", `${what}: underlyingSource`);
  const pull = callbackMember(source, "pull", `${what}: underlyingSource`);
  const start = callbackMember(source, "start", `${what}: underlyingSource`);
  let type = source.type;
  if (type !== undefined) {
    type = `${type}`;
    if (type !== "bytes") throw new TypeError(`${what}: underlyingSource.type must be "bytes" or undefined, got "${type}"`);
  }
  return { autoAllocateChunkSize, cancel, pull, start, type };
}

class ReadableStream {
  #slots;

  constructor(underlyingSource = undefined, strategy = undefined) {
    if (underlyingSource === INTERNAL && handoff !== undefined) {
      this.#slots = handoff;
      handoff.object = this;
      handoff = undefined;
      return;
    }
    const what = "ReadableStream constructor";
    if (underlyingSource !== undefined && !isObject(underlyingSource)) {
      throw new TypeError(`${what}: underlyingSource must be an object, got ${describe(underlyingSource)}`);
    }
    const strategyDict = convertQueuingStrategy(strategy, what);
    const underlyingSourceDict = convertUnderlyingSource(underlyingSource === undefined ? null : underlyingSource, what);
    const slots = new ReadableStreamSlots();
    slots.object = this;
    this.#slots = slots;
    if (underlyingSourceDict.type === "bytes") {
      if (strategyDict.size !== undefined) throw new RangeError(`${what}: a byte stream's strategy cannot have a size function`);
      const highWaterMark = ExtractHighWaterMark(strategyDict, 0);
      SetUpReadableByteStreamControllerFromUnderlyingSource(slots, underlyingSource, underlyingSourceDict, highWaterMark);
    } else {
      const sizeAlgorithm = ExtractSizeAlgorithm(strategyDict);
      const highWaterMark = ExtractHighWaterMark(strategyDict, 1);
      SetUpReadableStreamDefaultControllerFromUnderlyingSource(slots, underlyingSource, underlyingSourceDict, highWaterMark, sizeAlgorithm);
    }
  }

  static {
    readableStreamSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  static from(asyncIterable) {
    requireArguments(arguments.length, 1, "ReadableStream.from");
    return ReadableStreamFromIterable(asyncIterable).object;
  }

  get locked() {
    return IsReadableStreamLocked(thisSlots(readableStreamSlots, this, "ReadableStream", "locked"));
  }

  cancel(reason = undefined) {
    const stream = readableStreamSlots(this);
    if (stream === undefined) return promiseRejectedWith(new TypeError("ReadableStream.prototype.cancel: 'this' is not a ReadableStream"));
    if (IsReadableStreamLocked(stream)) return promiseRejectedWith(new TypeError("ReadableStream.prototype.cancel: cannot cancel a stream that is locked to a reader"));
    return ReadableStreamCancel(stream, reason);
  }

  getReader(options = undefined) {
    const stream = thisSlots(readableStreamSlots, this, "ReadableStream", "getReader");
    const dict = dictionaryOf(options, "ReadableStream.prototype.getReader: options");
    let mode;
    if (dict !== undefined && dict.mode !== undefined) {
      mode = `${dict.mode}`;
      if (mode !== "byob") throw new TypeError(`ReadableStream.prototype.getReader: options.mode must be "byob" or undefined, got "${mode}"`);
    }
    if (mode === undefined) return AcquireReadableStreamDefaultReader(stream).object;
    return AcquireReadableStreamBYOBReader(stream).object;
  }

  pipeThrough(transform, options = undefined) {
    const stream = thisSlots(readableStreamSlots, this, "ReadableStream", "pipeThrough");
    requireArguments(arguments.length, 1, "ReadableStream.prototype.pipeThrough");
    const what = "ReadableStream.prototype.pipeThrough";
    // ReadableWritablePair: readable, then writable, both required.
    if (!isObject(transform)) throw new TypeError(`${what}: transform must be an object with readable and writable, got ${describe(transform)}`);
    const readableValue = transform.readable;
    if (readableValue === undefined) throw new TypeError(`${what}: transform.readable is required`);
    const readable = readableStreamSlots(readableValue);
    if (readable === undefined) throw new TypeError(`${what}: transform.readable must be a ReadableStream`);
    const writableValue = transform.writable;
    if (writableValue === undefined) throw new TypeError(`${what}: transform.writable is required`);
    const writable = writableStreamSlots(writableValue);
    if (writable === undefined) throw new TypeError(`${what}: transform.writable must be a WritableStream`);
    const { preventAbort, preventCancel, preventClose, signal } = convertPipeOptions(options, what);
    if (IsReadableStreamLocked(stream)) throw new TypeError(`${what}: the ReadableStream is locked to a reader`);
    if (IsWritableStreamLocked(writable)) throw new TypeError(`${what}: transform.writable is locked to a writer`);
    const promise = ReadableStreamPipeTo(stream, writable, preventClose, preventAbort, preventCancel, signal);
    setPromiseIsHandledToTrue(promise);
    return readable.object;
  }

  pipeTo(destination, options = undefined) {
    const what = "ReadableStream.prototype.pipeTo";
    try {
      const stream = thisSlots(readableStreamSlots, this, "ReadableStream", "pipeTo");
      requireArguments(arguments.length, 1, what);
      const dest = writableStreamSlots(destination);
      if (dest === undefined) throw new TypeError(`${what}: destination must be a WritableStream, got ${describe(destination)}`);
      const { preventAbort, preventCancel, preventClose, signal } = convertPipeOptions(options, what);
      if (IsReadableStreamLocked(stream)) throw new TypeError(`${what}: the ReadableStream is locked to a reader`);
      if (IsWritableStreamLocked(dest)) throw new TypeError(`${what}: the destination is locked to a writer`);
      return ReadableStreamPipeTo(stream, dest, preventClose, preventAbort, preventCancel, signal);
    } catch (error) {
      return promiseRejectedWith(error);
    }
  }

  tee() {
    const stream = thisSlots(readableStreamSlots, this, "ReadableStream", "tee");
    const branches = ReadableStreamTee(stream, false);
    return [branches[0].object, branches[1].object];
  }

  values(options = undefined) {
    const stream = thisSlots(readableStreamSlots, this, "ReadableStream", "values");
    const dict = dictionaryOf(options, "ReadableStream.prototype.values: options");
    const preventCancel = dict === undefined ? false : toBoolean(dict.preventCancel);
    const reader = AcquireReadableStreamDefaultReader(stream);
    return makeAsyncIterator(reader, preventCancel);
  }
}
enumerable(ReadableStream.prototype, ["locked", "cancel", "getReader", "pipeThrough", "pipeTo", "tee", "values"]);
Object.defineProperty(ReadableStream, "from", { enumerable: true });
Object.defineProperty(ReadableStream.prototype, symbolAsyncIterator, {
  value: ReadableStream.prototype.values, writable: true, enumerable: false, configurable: true,
});
toStringTag(ReadableStream.prototype, "ReadableStream");

// StreamPipeOptions: preventAbort, preventCancel, preventClose, signal, in that order.
function convertPipeOptions(options, what) {
  const dict = dictionaryOf(options, `${what}: options`);
  if (dict === undefined) return { preventAbort: false, preventCancel: false, preventClose: false, signal: undefined };
  const preventAbort = toBoolean(dict.preventAbort);
  const preventCancel = toBoolean(dict.preventCancel);
  const preventClose = toBoolean(dict.preventClose);
  const signal = dict.signal;
  if (signal !== undefined && !internals.get("isAbortSignal")(signal)) {
    throw new TypeError(`${what}: options.signal must be an AbortSignal, got ${describe(signal)}`);
  }
  return { preventAbort, preventCancel, preventClose, signal };
}

// ReadableStream's async iterator, as Web IDL defines an asynchronous iterator: next() and
// return() each wait for the one before (the ongoing promise).
class AsyncIteratorSlots {
  constructor(reader, preventCancel) {
    this.reader = reader;
    this.preventCancel = preventCancel;
    this.ongoingPromise = undefined;
    this.isFinished = false;
  }
}

class IteratorReadRequest {
  constructor(iterator, deferred) {
    this.iterator = iterator;
    this.deferred = deferred;
  }

  chunkSteps(chunk) {
    this.deferred.resolve({ value: chunk, done: false });
  }

  closeSteps() {
    ReadableStreamDefaultReaderRelease(this.iterator.reader);
    this.deferred.resolve(iteratorEnd);
  }

  errorSteps(e) {
    ReadableStreamDefaultReaderRelease(this.iterator.reader);
    this.deferred.reject(e);
  }
}

const iteratorEnd = Object.freeze({ end: true });
const iteratorSlots = new WeakMap();

function iteratorNextSteps(slots) {
  if (slots.isFinished) return promiseResolvedWith({ value: undefined, done: true });
  const deferred = newPromise();
  ReadableStreamDefaultReaderRead(slots.reader, new IteratorReadRequest(slots, deferred));
  return transformPromiseWith(deferred.promise, (next) => {
    slots.ongoingPromise = undefined;
    if (next === iteratorEnd) {
      slots.isFinished = true;
      return { value: undefined, done: true };
    }
    return next;
  }, (reason) => {
    slots.ongoingPromise = undefined;
    slots.isFinished = true;
    throw reason;
  });
}

function iteratorReturnSteps(slots, value) {
  if (slots.isFinished) return promiseResolvedWith({ value, done: true });
  slots.isFinished = true;
  const reader = slots.reader;
  if (!slots.preventCancel) {
    const result = ReadableStreamReaderGenericCancel(reader, value);
    ReadableStreamDefaultReaderRelease(reader);
    return result;
  }
  ReadableStreamDefaultReaderRelease(reader);
  return promiseResolvedWith(undefined);
}

const ReadableStreamAsyncIteratorPrototype = Object.create(AsyncIteratorPrototype, {
  next: {
    value: {
      next() {
        const slots = iteratorSlots.get(this);
        if (slots === undefined) return promiseRejectedWith(new TypeError("ReadableStream AsyncIterator next: 'this' is not a ReadableStream async iterator"));
        const ongoing = slots.ongoingPromise;
        const afterOngoingPromise = ongoing !== undefined
          ? transformPromiseWith(ongoing, () => iteratorNextSteps(slots), () => iteratorNextSteps(slots))
          : iteratorNextSteps(slots);
        slots.ongoingPromise = afterOngoingPromise;
        return afterOngoingPromise;
      },
    }.next,
    writable: true, enumerable: true, configurable: true,
  },
  return: {
    value: {
      return(value) {
        const slots = iteratorSlots.get(this);
        if (slots === undefined) return promiseRejectedWith(new TypeError("ReadableStream AsyncIterator return: 'this' is not a ReadableStream async iterator"));
        const ongoing = slots.ongoingPromise;
        const returnSteps = () => iteratorReturnSteps(slots, value);
        const afterOngoingPromise = ongoing !== undefined ? transformPromiseWith(ongoing, returnSteps, returnSteps) : returnSteps();
        slots.ongoingPromise = afterOngoingPromise;
        return transformPromiseWith(afterOngoingPromise, () => ({ value, done: true }));
      },
    }.return,
    writable: true, enumerable: true, configurable: true,
  },
});
toStringTag(ReadableStreamAsyncIteratorPrototype, "ReadableStream AsyncIterator");

function makeAsyncIterator(reader, preventCancel) {
  const iterator = Object.create(ReadableStreamAsyncIteratorPrototype);
  iteratorSlots.set(iterator, new AsyncIteratorSlots(reader, preventCancel));
  return iterator;
}

class ReadableStreamDefaultReader {
  #slots;

  constructor(stream) {
    if (stream === INTERNAL && handoff !== undefined) {
      this.#slots = handoff;
      handoff.object = this;
      handoff = undefined;
      return;
    }
    requireArguments(arguments.length, 1, "ReadableStreamDefaultReader constructor");
    const streamSlots = readableStreamSlots(stream);
    if (streamSlots === undefined) throw new TypeError(`ReadableStreamDefaultReader constructor: expected a ReadableStream, got ${describe(stream)}`);
    const slots = new ReaderSlots(false);
    slots.object = this;
    SetUpReadableStreamDefaultReader(slots, streamSlots);
    this.#slots = slots;
  }

  static {
    defaultReaderSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  get closed() {
    const reader = defaultReaderSlots(this);
    if (reader === undefined) return promiseRejectedWith(new TypeError("ReadableStreamDefaultReader.prototype.closed: 'this' is not a ReadableStreamDefaultReader"));
    return reader.closed.promise;
  }

  cancel(reason = undefined) {
    const reader = defaultReaderSlots(this);
    if (reader === undefined) return promiseRejectedWith(new TypeError("ReadableStreamDefaultReader.prototype.cancel: 'this' is not a ReadableStreamDefaultReader"));
    if (reader.stream === undefined) return promiseRejectedWith(new TypeError("cannot cancel: the reader has been released"));
    return ReadableStreamReaderGenericCancel(reader, reason);
  }

  read() {
    const reader = defaultReaderSlots(this);
    if (reader === undefined) return promiseRejectedWith(new TypeError("ReadableStreamDefaultReader.prototype.read: 'this' is not a ReadableStreamDefaultReader"));
    if (reader.stream === undefined) return promiseRejectedWith(new TypeError("cannot read: the reader has been released"));
    const deferred = newPromise();
    ReadableStreamDefaultReaderRead(reader, new PromiseReadRequest(deferred));
    return deferred.promise;
  }

  releaseLock() {
    const reader = thisSlots(defaultReaderSlots, this, "ReadableStreamDefaultReader", "releaseLock");
    if (reader.stream === undefined) return;
    ReadableStreamDefaultReaderRelease(reader);
  }
}
enumerable(ReadableStreamDefaultReader.prototype, ["closed", "cancel", "read", "releaseLock"]);
toStringTag(ReadableStreamDefaultReader.prototype, "ReadableStreamDefaultReader");

class ReadableStreamBYOBReader {
  #slots;

  constructor(stream) {
    if (stream === INTERNAL && handoff !== undefined) {
      this.#slots = handoff;
      handoff.object = this;
      handoff = undefined;
      return;
    }
    requireArguments(arguments.length, 1, "ReadableStreamBYOBReader constructor");
    const streamSlots = readableStreamSlots(stream);
    if (streamSlots === undefined) throw new TypeError(`ReadableStreamBYOBReader constructor: expected a ReadableStream, got ${describe(stream)}`);
    const slots = new ReaderSlots(true);
    slots.object = this;
    SetUpReadableStreamBYOBReader(slots, streamSlots);
    this.#slots = slots;
  }

  static {
    byobReaderSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  get closed() {
    const reader = byobReaderSlots(this);
    if (reader === undefined) return promiseRejectedWith(new TypeError("ReadableStreamBYOBReader.prototype.closed: 'this' is not a ReadableStreamBYOBReader"));
    return reader.closed.promise;
  }

  cancel(reason = undefined) {
    const reader = byobReaderSlots(this);
    if (reader === undefined) return promiseRejectedWith(new TypeError("ReadableStreamBYOBReader.prototype.cancel: 'this' is not a ReadableStreamBYOBReader"));
    if (reader.stream === undefined) return promiseRejectedWith(new TypeError("cannot cancel: the reader has been released"));
    return ReadableStreamReaderGenericCancel(reader, reason);
  }

  read(view, options = undefined) {
    const what = "ReadableStreamBYOBReader.prototype.read";
    let reader;
    let info;
    let min = 1;
    try {
      reader = thisSlots(byobReaderSlots, this, "ReadableStreamBYOBReader", "read");
      requireArguments(arguments.length, 1, what);
      info = convertArrayBufferView(view, `${what}: view`);
      const dict = dictionaryOf(options, `${what}: options`);
      if (dict !== undefined && dict.min !== undefined) min = enforceRangeUnsignedLongLong(dict.min, `${what}: options.min`);
    } catch (error) {
      return promiseRejectedWith(error);
    }
    if (info.byteLength === 0) return promiseRejectedWith(new TypeError(`${what}: the view is empty (byteLength 0)`));
    if (arrayBufferByteLength(info.buffer) === 0) {
      return promiseRejectedWith(new TypeError(`${what}: the view's ArrayBuffer is ${IsDetachedBuffer(info.buffer) ? "detached" : "empty"}`));
    }
    if (IsDetachedBuffer(info.buffer)) return promiseRejectedWith(new TypeError(`${what}: the view's ArrayBuffer is detached`));
    if (min === 0) return promiseRejectedWith(new TypeError(`${what}: options.min must be more than 0`));
    if (info.typed) {
      if (min > info.length) return promiseRejectedWith(new RangeError(`${what}: options.min (${min}) is more than the view's length (${info.length})`));
    } else if (min > info.byteLength) {
      return promiseRejectedWith(new RangeError(`${what}: options.min (${min}) is more than the view's byteLength (${info.byteLength})`));
    }
    if (reader.stream === undefined) return promiseRejectedWith(new TypeError("cannot read: the reader has been released"));
    const deferred = newPromise();
    ReadableStreamBYOBReaderRead(reader, info, min, new PromiseReadIntoRequest(deferred));
    return deferred.promise;
  }

  releaseLock() {
    const reader = thisSlots(byobReaderSlots, this, "ReadableStreamBYOBReader", "releaseLock");
    if (reader.stream === undefined) return;
    ReadableStreamBYOBReaderRelease(reader);
  }
}
enumerable(ReadableStreamBYOBReader.prototype, ["closed", "cancel", "read", "releaseLock"]);
toStringTag(ReadableStreamBYOBReader.prototype, "ReadableStreamBYOBReader");

class ReadableStreamDefaultController {
  #slots;

  constructor(key = undefined) {
    if (key !== INTERNAL || handoff === undefined) throw new TypeError("Illegal constructor: ReadableStreamDefaultController is made by a ReadableStream");
    this.#slots = handoff;
    handoff.object = this;
    handoff = undefined;
  }

  static {
    defaultControllerSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  get desiredSize() {
    return ReadableStreamDefaultControllerGetDesiredSize(thisSlots(defaultControllerSlots, this, "ReadableStreamDefaultController", "desiredSize"));
  }

  close() {
    const controller = thisSlots(defaultControllerSlots, this, "ReadableStreamDefaultController", "close");
    if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)) {
      throw new TypeError("ReadableStreamDefaultController.close: the stream is already closing, closed or errored");
    }
    ReadableStreamDefaultControllerClose(controller);
  }

  enqueue(chunk = undefined) {
    const controller = thisSlots(defaultControllerSlots, this, "ReadableStreamDefaultController", "enqueue");
    if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)) {
      throw new TypeError("ReadableStreamDefaultController.enqueue: the stream is closing, closed or errored");
    }
    ReadableStreamDefaultControllerEnqueue(controller, chunk);
  }

  error(e = undefined) {
    ReadableStreamDefaultControllerError(thisSlots(defaultControllerSlots, this, "ReadableStreamDefaultController", "error"), e);
  }
}
enumerable(ReadableStreamDefaultController.prototype, ["desiredSize", "close", "enqueue", "error"]);
toStringTag(ReadableStreamDefaultController.prototype, "ReadableStreamDefaultController");

class ReadableByteStreamController {
  #slots;

  constructor(key = undefined) {
    if (key !== INTERNAL || handoff === undefined) throw new TypeError("Illegal constructor: ReadableByteStreamController is made by a ReadableStream");
    this.#slots = handoff;
    handoff.object = this;
    handoff = undefined;
  }

  static {
    byteControllerSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  get byobRequest() {
    const request = ReadableByteStreamControllerGetBYOBRequest(thisSlots(byteControllerSlots, this, "ReadableByteStreamController", "byobRequest"));
    return request === null ? null : request.object;
  }

  get desiredSize() {
    return ReadableByteStreamControllerGetDesiredSize(thisSlots(byteControllerSlots, this, "ReadableByteStreamController", "desiredSize"));
  }

  close() {
    const controller = thisSlots(byteControllerSlots, this, "ReadableByteStreamController", "close");
    if (controller.closeRequested) throw new TypeError("ReadableByteStreamController.close: close() was called already");
    if (controller.stream.state !== "readable") throw new TypeError(`ReadableByteStreamController.close: the stream is ${controller.stream.state}`);
    ReadableByteStreamControllerClose(controller);
  }

  enqueue(chunk) {
    const controller = thisSlots(byteControllerSlots, this, "ReadableByteStreamController", "enqueue");
    const what = "ReadableByteStreamController.enqueue";
    requireArguments(arguments.length, 1, what);
    const info = convertArrayBufferView(chunk, `${what}: chunk`);
    if (info.byteLength === 0) throw new TypeError(`${what}: the chunk is empty (byteLength 0)`);
    if (arrayBufferByteLength(info.buffer) === 0) {
      throw new TypeError(`${what}: the chunk's ArrayBuffer is ${IsDetachedBuffer(info.buffer) ? "detached" : "empty"}`);
    }
    if (controller.closeRequested) throw new TypeError(`${what}: the stream is closing`);
    if (controller.stream.state !== "readable") throw new TypeError(`${what}: the stream is ${controller.stream.state}`);
    ReadableByteStreamControllerEnqueue(controller, info);
  }

  error(e = undefined) {
    ReadableByteStreamControllerError(thisSlots(byteControllerSlots, this, "ReadableByteStreamController", "error"), e);
  }
}
enumerable(ReadableByteStreamController.prototype, ["byobRequest", "desiredSize", "close", "enqueue", "error"]);
toStringTag(ReadableByteStreamController.prototype, "ReadableByteStreamController");

class ReadableStreamBYOBRequest {
  #slots;

  constructor(key = undefined) {
    if (key !== INTERNAL || handoff === undefined) throw new TypeError("Illegal constructor: ReadableStreamBYOBRequest is made by a ReadableByteStreamController");
    this.#slots = handoff;
    handoff.object = this;
    handoff = undefined;
  }

  static {
    byobRequestSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  get view() {
    return thisSlots(byobRequestSlots, this, "ReadableStreamBYOBRequest", "view").view;
  }

  respond(bytesWritten) {
    const request = thisSlots(byobRequestSlots, this, "ReadableStreamBYOBRequest", "respond");
    const what = "ReadableStreamBYOBRequest.respond";
    requireArguments(arguments.length, 1, what);
    const count = enforceRangeUnsignedLongLong(bytesWritten, `${what}: bytesWritten`);
    if (request.controller === undefined) throw new TypeError(`${what}: this request has been answered already`);
    if (IsDetachedBuffer(typedArrayBuffer.call(request.view))) throw new TypeError(`${what}: the view's ArrayBuffer is detached`);
    ReadableByteStreamControllerRespond(request.controller, count);
  }

  respondWithNewView(view) {
    const request = thisSlots(byobRequestSlots, this, "ReadableStreamBYOBRequest", "respondWithNewView");
    const what = "ReadableStreamBYOBRequest.respondWithNewView";
    requireArguments(arguments.length, 1, what);
    const info = convertArrayBufferView(view, `${what}: view`);
    if (request.controller === undefined) throw new TypeError(`${what}: this request has been answered already`);
    if (IsDetachedBuffer(info.buffer)) throw new TypeError(`${what}: the view's ArrayBuffer is detached`);
    ReadableByteStreamControllerRespondWithNewView(request.controller, info);
  }
}
enumerable(ReadableStreamBYOBRequest.prototype, ["view", "respond", "respondWithNewView"]);
toStringTag(ReadableStreamBYOBRequest.prototype, "ReadableStreamBYOBRequest");

// UnderlyingSink, in Web IDL's order: abort, close, start, type, write.
function convertUnderlyingSink(sink, what) {
  if (sink === null) return {};
  const abort = callbackMember(sink, "abort", `${what}: underlyingSink`);
  const close = callbackMember(sink, "close", `${what}: underlyingSink`);
  const start = callbackMember(sink, "start", `${what}: underlyingSink`);
  const type = sink.type;
  const write = callbackMember(sink, "write", `${what}: underlyingSink`);
  return { abort, close, start, type, write };
}

class WritableStream {
  #slots;

  constructor(underlyingSink = undefined, strategy = undefined) {
    if (underlyingSink === INTERNAL && handoff !== undefined) {
      this.#slots = handoff;
      handoff.object = this;
      handoff = undefined;
      return;
    }
    const what = "WritableStream constructor";
    if (underlyingSink !== undefined && !isObject(underlyingSink)) {
      throw new TypeError(`${what}: underlyingSink must be an object, got ${describe(underlyingSink)}`);
    }
    const strategyDict = convertQueuingStrategy(strategy, what);
    const underlyingSinkDict = convertUnderlyingSink(underlyingSink === undefined ? null : underlyingSink, what);
    if (underlyingSinkDict.type !== undefined) throw new RangeError(`${what}: underlyingSink.type must be undefined (no type of writable stream is defined yet)`);
    const slots = new WritableStreamSlots();
    slots.object = this;
    this.#slots = slots;
    const sizeAlgorithm = ExtractSizeAlgorithm(strategyDict);
    const highWaterMark = ExtractHighWaterMark(strategyDict, 1);
    SetUpWritableStreamDefaultControllerFromUnderlyingSink(slots, underlyingSink, underlyingSinkDict, highWaterMark, sizeAlgorithm);
  }

  static {
    writableStreamSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  get locked() {
    return IsWritableStreamLocked(thisSlots(writableStreamSlots, this, "WritableStream", "locked"));
  }

  abort(reason = undefined) {
    const stream = writableStreamSlots(this);
    if (stream === undefined) return promiseRejectedWith(new TypeError("WritableStream.prototype.abort: 'this' is not a WritableStream"));
    if (IsWritableStreamLocked(stream)) return promiseRejectedWith(new TypeError("WritableStream.prototype.abort: cannot abort a stream that is locked to a writer"));
    return WritableStreamAbort(stream, reason);
  }

  close() {
    const stream = writableStreamSlots(this);
    if (stream === undefined) return promiseRejectedWith(new TypeError("WritableStream.prototype.close: 'this' is not a WritableStream"));
    if (IsWritableStreamLocked(stream)) return promiseRejectedWith(new TypeError("WritableStream.prototype.close: cannot close a stream that is locked to a writer"));
    if (WritableStreamCloseQueuedOrInFlight(stream)) return promiseRejectedWith(new TypeError("WritableStream.prototype.close: the stream is closing already"));
    return WritableStreamClose(stream);
  }

  getWriter() {
    return AcquireWritableStreamDefaultWriter(thisSlots(writableStreamSlots, this, "WritableStream", "getWriter")).object;
  }
}
enumerable(WritableStream.prototype, ["locked", "abort", "close", "getWriter"]);
toStringTag(WritableStream.prototype, "WritableStream");

class WritableStreamDefaultWriter {
  #slots;

  constructor(stream) {
    if (stream === INTERNAL && handoff !== undefined) {
      this.#slots = handoff;
      handoff.object = this;
      handoff = undefined;
      return;
    }
    requireArguments(arguments.length, 1, "WritableStreamDefaultWriter constructor");
    const streamSlots = writableStreamSlots(stream);
    if (streamSlots === undefined) throw new TypeError(`WritableStreamDefaultWriter constructor: expected a WritableStream, got ${describe(stream)}`);
    const slots = new WritableStreamDefaultWriterSlots();
    slots.object = this;
    SetUpWritableStreamDefaultWriter(slots, streamSlots);
    this.#slots = slots;
  }

  static {
    writerSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  get closed() {
    const writer = writerSlots(this);
    if (writer === undefined) return promiseRejectedWith(new TypeError("WritableStreamDefaultWriter.prototype.closed: 'this' is not a WritableStreamDefaultWriter"));
    return writer.closed.promise;
  }

  get desiredSize() {
    const writer = thisSlots(writerSlots, this, "WritableStreamDefaultWriter", "desiredSize");
    if (writer.stream === undefined) throw new TypeError("WritableStreamDefaultWriter.desiredSize: the writer has been released");
    return WritableStreamDefaultWriterGetDesiredSize(writer);
  }

  get ready() {
    const writer = writerSlots(this);
    if (writer === undefined) return promiseRejectedWith(new TypeError("WritableStreamDefaultWriter.prototype.ready: 'this' is not a WritableStreamDefaultWriter"));
    return writer.ready.promise;
  }

  abort(reason = undefined) {
    const writer = writerSlots(this);
    if (writer === undefined) return promiseRejectedWith(new TypeError("WritableStreamDefaultWriter.prototype.abort: 'this' is not a WritableStreamDefaultWriter"));
    if (writer.stream === undefined) return promiseRejectedWith(new TypeError("cannot abort: the writer has been released"));
    return WritableStreamAbort(writer.stream, reason);
  }

  close() {
    const writer = writerSlots(this);
    if (writer === undefined) return promiseRejectedWith(new TypeError("WritableStreamDefaultWriter.prototype.close: 'this' is not a WritableStreamDefaultWriter"));
    const stream = writer.stream;
    if (stream === undefined) return promiseRejectedWith(new TypeError("cannot close: the writer has been released"));
    if (WritableStreamCloseQueuedOrInFlight(stream)) return promiseRejectedWith(new TypeError("cannot close: the stream is closing already"));
    return WritableStreamClose(stream);
  }

  releaseLock() {
    const writer = thisSlots(writerSlots, this, "WritableStreamDefaultWriter", "releaseLock");
    if (writer.stream === undefined) return;
    WritableStreamDefaultWriterRelease(writer);
  }

  write(chunk = undefined) {
    const writer = writerSlots(this);
    if (writer === undefined) return promiseRejectedWith(new TypeError("WritableStreamDefaultWriter.prototype.write: 'this' is not a WritableStreamDefaultWriter"));
    if (writer.stream === undefined) return promiseRejectedWith(new TypeError("cannot write: the writer has been released"));
    return WritableStreamDefaultWriterWrite(writer, chunk);
  }
}
enumerable(WritableStreamDefaultWriter.prototype, ["closed", "desiredSize", "ready", "abort", "close", "releaseLock", "write"]);
toStringTag(WritableStreamDefaultWriter.prototype, "WritableStreamDefaultWriter");

class WritableStreamDefaultController {
  #slots;

  constructor(key = undefined) {
    if (key !== INTERNAL || handoff === undefined) throw new TypeError("Illegal constructor: WritableStreamDefaultController is made by a WritableStream");
    this.#slots = handoff;
    handoff.object = this;
    handoff = undefined;
  }

  static {
    writableControllerSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  get signal() {
    return thisSlots(writableControllerSlots, this, "WritableStreamDefaultController", "signal").abortController.signal;
  }

  error(e = undefined) {
    const controller = thisSlots(writableControllerSlots, this, "WritableStreamDefaultController", "error");
    if (controller.stream.state !== "writable") return;
    WritableStreamDefaultControllerError(controller, e);
  }
}
enumerable(WritableStreamDefaultController.prototype, ["signal", "error"]);
toStringTag(WritableStreamDefaultController.prototype, "WritableStreamDefaultController");

// Transformer, in Web IDL's order: cancel, flush, readableType, start, transform, writableType.
function convertTransformer(transformer, what) {
  if (transformer === null) return {};
  const cancel = callbackMember(transformer, "cancel", `${what}: transformer`);
  const flush = callbackMember(transformer, "flush", `${what}: transformer`);
  const readableType = transformer.readableType;
  const start = callbackMember(transformer, "start", `${what}: transformer`);
  const transform = callbackMember(transformer, "transform", `${what}: transformer`);
  const writableType = transformer.writableType;
  return { cancel, flush, readableType, start, transform, writableType };
}

class TransformStream {
  #slots;

  constructor(transformer = undefined, writableStrategy = undefined, readableStrategy = undefined) {
    const what = "TransformStream constructor";
    if (transformer !== undefined && !isObject(transformer)) {
      throw new TypeError(`${what}: transformer must be an object, got ${describe(transformer)}`);
    }
    const writableStrategyDict = convertQueuingStrategy(writableStrategy, `${what}: writableStrategy`);
    const readableStrategyDict = convertQueuingStrategy(readableStrategy, `${what}: readableStrategy`);
    const transformerDict = convertTransformer(transformer === undefined ? null : transformer, what);
    if (transformerDict.readableType !== undefined) throw new RangeError(`${what}: transformer.readableType must be undefined`);
    if (transformerDict.writableType !== undefined) throw new RangeError(`${what}: transformer.writableType must be undefined`);
    const readableHighWaterMark = ExtractHighWaterMark(readableStrategyDict, 0);
    const readableSizeAlgorithm = ExtractSizeAlgorithm(readableStrategyDict);
    const writableHighWaterMark = ExtractHighWaterMark(writableStrategyDict, 1);
    const writableSizeAlgorithm = ExtractSizeAlgorithm(writableStrategyDict);
    const startPromise = newPromise();
    const slots = new TransformStreamSlots();
    slots.object = this;
    this.#slots = slots;
    InitializeTransformStream(slots, startPromise.promise, writableHighWaterMark, writableSizeAlgorithm, readableHighWaterMark, readableSizeAlgorithm);
    SetUpTransformStreamDefaultControllerFromTransformer(slots, transformer, transformerDict);
    if (transformerDict.start !== undefined) {
      startPromise.resolve(reflectApply(transformerDict.start, transformer, [slots.controller.object]));
    } else {
      startPromise.resolve(undefined);
    }
  }

  static {
    transformStreamSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  get readable() {
    return thisSlots(transformStreamSlots, this, "TransformStream", "readable").readable.object;
  }

  get writable() {
    return thisSlots(transformStreamSlots, this, "TransformStream", "writable").writable.object;
  }
}
enumerable(TransformStream.prototype, ["readable", "writable"]);
toStringTag(TransformStream.prototype, "TransformStream");

class TransformStreamDefaultController {
  #slots;

  constructor(key = undefined) {
    if (key !== INTERNAL || handoff === undefined) throw new TypeError("Illegal constructor: TransformStreamDefaultController is made by a TransformStream");
    this.#slots = handoff;
    handoff.object = this;
    handoff = undefined;
  }

  static {
    transformControllerSlots = (value) => (isObject(value) && #slots in value ? value.#slots : undefined);
  }

  get desiredSize() {
    const controller = thisSlots(transformControllerSlots, this, "TransformStreamDefaultController", "desiredSize");
    return ReadableStreamDefaultControllerGetDesiredSize(controller.stream.readable.controller);
  }

  enqueue(chunk = undefined) {
    TransformStreamDefaultControllerEnqueue(thisSlots(transformControllerSlots, this, "TransformStreamDefaultController", "enqueue"), chunk);
  }

  error(reason = undefined) {
    TransformStreamDefaultControllerError(thisSlots(transformControllerSlots, this, "TransformStreamDefaultController", "error"), reason);
  }

  terminate() {
    TransformStreamDefaultControllerTerminate(thisSlots(transformControllerSlots, this, "TransformStreamDefaultController", "terminate"));
  }
}
enumerable(TransformStreamDefaultController.prototype, ["desiredSize", "enqueue", "error", "terminate"]);
toStringTag(TransformStreamDefaultController.prototype, "TransformStreamDefaultController");

// ---- Queuing strategies ------------------------------------------------------------------------

// QueuingStrategyInit: { required unrestricted double highWaterMark }.
function convertQueuingStrategyInit(init, what) {
  requireArguments(init === undefined ? 0 : 1, 1, what);
  const dict = dictionaryOf(init, `${what}: init`);
  const value = dict === undefined ? undefined : dict.highWaterMark;
  if (value === undefined) throw new TypeError(`${what}: init.highWaterMark is required`);
  return +value;
}

// One size function each for the whole run, as the standard keeps one per global object.
const byteLengthSize = { size(chunk) { return chunk.byteLength; } }.size;
const countSize = { size() { return 1; } }.size;

class ByteLengthQueuingStrategy {
  #highWaterMark;

  constructor(init) {
    this.#highWaterMark = convertQueuingStrategyInit(init, "ByteLengthQueuingStrategy constructor");
  }

  get highWaterMark() {
    if (!isObject(this) || !(#highWaterMark in this)) throw new TypeError("ByteLengthQueuingStrategy.prototype.highWaterMark: 'this' is not a ByteLengthQueuingStrategy");
    return this.#highWaterMark;
  }

  get size() {
    if (!isObject(this) || !(#highWaterMark in this)) throw new TypeError("ByteLengthQueuingStrategy.prototype.size: 'this' is not a ByteLengthQueuingStrategy");
    return byteLengthSize;
  }
}
enumerable(ByteLengthQueuingStrategy.prototype, ["highWaterMark", "size"]);
toStringTag(ByteLengthQueuingStrategy.prototype, "ByteLengthQueuingStrategy");

class CountQueuingStrategy {
  #highWaterMark;

  constructor(init) {
    this.#highWaterMark = convertQueuingStrategyInit(init, "CountQueuingStrategy constructor");
  }

  get highWaterMark() {
    if (!isObject(this) || !(#highWaterMark in this)) throw new TypeError("CountQueuingStrategy.prototype.highWaterMark: 'this' is not a CountQueuingStrategy");
    return this.#highWaterMark;
  }

  get size() {
    if (!isObject(this) || !(#highWaterMark in this)) throw new TypeError("CountQueuingStrategy.prototype.size: 'this' is not a CountQueuingStrategy");
    return countSize;
  }
}
enumerable(CountQueuingStrategy.prototype, ["highWaterMark", "size"]);
toStringTag(CountQueuingStrategy.prototype, "CountQueuingStrategy");

// ---- What this group gives ---------------------------------------------------------------------

define("ReadableStream", ReadableStream);
define("ReadableStreamDefaultReader", ReadableStreamDefaultReader);
define("ReadableStreamBYOBReader", ReadableStreamBYOBReader);
define("ReadableStreamDefaultController", ReadableStreamDefaultController);
define("ReadableByteStreamController", ReadableByteStreamController);
define("ReadableStreamBYOBRequest", ReadableStreamBYOBRequest);
define("WritableStream", WritableStream);
define("WritableStreamDefaultWriter", WritableStreamDefaultWriter);
define("WritableStreamDefaultController", WritableStreamDefaultController);
define("TransformStream", TransformStream);
define("TransformStreamDefaultController", TransformStreamDefaultController);
define("ByteLengthQueuingStrategy", ByteLengthQueuingStrategy);
define("CountQueuingStrategy", CountQueuingStrategy);

// Streams are not serializable (transferring them needs a MessagePort, which the host has not).
internals.platformObjects.register((value) => readableStreamSlots(value) !== undefined
  || writableStreamSlots(value) !== undefined || transformStreamSlots(value) !== undefined, null);

internals.provide("isReadableStream", (value) => readableStreamSlots(value) !== undefined);
internals.provide("isWritableStream", (value) => writableStreamSlots(value) !== undefined);
internals.provide("isReadableStreamLocked", (stream) => IsReadableStreamLocked(readableStreamSlots(stream)));
internals.provide("isReadableStreamDisturbed", (stream) => readableStreamSlots(stream).disturbed);
// createReadableStream({ start, pull, cancel, highWaterMark, size }): the standard's
// CreateReadableStream. start(controller) and pull(controller) get the stream's
// ReadableStreamDefaultController; pull and cancel(reason) may return a promise. No dictionary of
// a program's is read, so nothing on Object.prototype is seen.
internals.provide("createReadableStream", (algorithms) => {
  const stream = newReadableStream();
  const controller = new ReadableStreamDefaultControllerSlots();
  shell(ReadableStreamDefaultController, controller);
  const { start, pull, cancel, size } = algorithms;
  const startAlgorithm = start === undefined ? noop : () => start(controller.object);
  const pullAlgorithm = pull === undefined ? resolvedUndefined : () => invokeReturningPromise(pull, undefined, [controller.object]);
  const cancelAlgorithm = cancel === undefined ? resolvedUndefined : (reason) => invokeReturningPromise(cancel, undefined, [reason]);
  SetUpReadableStreamDefaultController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm,
    algorithms.highWaterMark ?? 1, size === undefined ? sizeOne : size);
  return stream.object;
});
internals.provide("readableStreamFromIterable", (iterable) => ReadableStreamFromIterable(iterable).object);
