"use strict";
// Blob and File, as the W3C File API defines them, and FormData, as the WHATWG XMLHttpRequest
// Standard does, with the HTML Standard's multipart/form-data encoding that fetch sends a
// FormData body in (`internals.get("encodeMultipart")`).
//
// A blob's bytes are a list of Uint8Array chunks that no program can reach, so they never change:
// a slice, a File made from a Blob, a FormData entry, a structured clone and a multipart body all
// share them, and only reading (arrayBuffer(), bytes(), text()) copies them into one buffer. A
// string part is UTF-8 encoded once, when the blob is made, and bytes are never carried in a JS
// string. blob.stream() is a byte stream that copies the chunks out 64 KB at a time.

const TextEncoder = internals.get("TextEncoder");
const TextDecoder = internals.get("TextDecoder");

// ---- Web IDL helpers -------------------------------------------------------------------------------

const { requireArguments, dictionary, enumerable, toStringTag, pairIterator } = internals.get("webidl");

// USVString: ToString (a Symbol throws), then each lone surrogate becomes U+FFFD.
function usvString(value) {
  return `${value}`.toWellFormed();
}

// DOMString.
function domString(value) {
  return `${value}`;
}

// [Clamp] long long: NaN is 0, the rest is clamped to ±(2^53 - 1) and rounded half to even.
function clampLongLong(value) {
  let x = +value;
  if (Number.isNaN(x)) return 0;
  x = Math.min(Math.max(x, -Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER);
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest > 0.5 || (rest === 0.5 && floor % 2 !== 0)) return floor + 1;
  return floor === 0 ? 0 : floor;
}

// long long: NaN and the infinities are 0, the rest is truncated and wrapped modulo 2^64.
function longLong(value) {
  const x = +value;
  if (!Number.isFinite(x)) return 0;
  const integer = Math.trunc(x);
  if (Number.isSafeInteger(integer)) return integer === 0 ? 0 : integer;
  return Number(BigInt.asIntN(64, BigInt(integer)));
}

// A copy of a BufferSource's bytes, read through the built-ins' own getters (webidl.js).
const { bufferSourceBytes } = internals.get("webidl").buffers;

// The type of a Blob: empty unless every character is printable ASCII, then lowercased.
function normalizeType(type) {
  for (let i = 0; i < type.length; i++) {
    const c = type.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return "";
  }
  return type.toLowerCase();
}

const encoder = new TextEncoder();

// ---- Blob ----------------------------------------------------------------------------------------

// sequence<BlobPart>, converted as Web IDL converts it: each element, in order, to a Blob's chunks,
// a copy of a buffer's bytes, or a USVString.
function convertBlobParts(value, what) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) {
    throw new TypeError(`${what}: The provided value cannot be converted to a sequence.`);
  }
  const method = value[Symbol.iterator];
  if (typeof method !== "function") {
    throw new TypeError(`${what}: The object must have a callable @@iterator property.`);
  }
  const iterator = method.call(value);
  if (iterator === null || (typeof iterator !== "object" && typeof iterator !== "function")) {
    throw new TypeError(`${what}: the blobParts iterator is not an object`);
  }
  const next = iterator.next;
  const parts = [];
  for (;;) {
    const step = next.call(iterator);
    if (step === null || (typeof step !== "object" && typeof step !== "function")) {
      throw new TypeError(`${what}: the blobParts iterator's result is not an object`);
    }
    if (step.done) return parts;
    const element = step.value;
    if (element !== null && (typeof element === "object" || typeof element === "function")) {
      const chunks = chunksOf(element);
      if (chunks !== undefined) {
        parts.push(chunks);
        continue;
      }
      const bytes = bufferSourceBytes(element);
      if (bytes !== undefined) {
        parts.push(bytes);
        continue;
      }
    }
    parts.push(usvString(element));
  }
}

// BlobPropertyBag's `endings`; the caller reads `type` (and File's `lastModified`) after it, as
// the dictionary's members are read in lexicographic order.
function convertEndings(init, what) {
  if (init === undefined) return "transparent";
  const endings = init.endings;
  if (endings === undefined) return "transparent";
  const text = domString(endings);
  if (text !== "transparent" && text !== "native") {
    throw new TypeError(`${what}: options.endings: The provided value '${text}' is not a valid enum value of type EndingType ("transparent" or "native").`);
  }
  return text;
}

function convertType(init) {
  if (init === undefined) return "";
  const type = init.type;
  return type === undefined ? "" : normalizeType(domString(type));
}

// "process blob parts": the chunks of the new blob, and its size.
function processParts(parts, endings) {
  const chunks = [];
  let size = 0;
  for (const part of parts) {
    if (typeof part === "string") {
      // "native" line endings are this platform's: LF.
      const text = endings === "native" ? part.replace(/\r\n?/g, "\n") : part;
      if (text.length === 0) continue;
      const bytes = encoder.encode(text);
      chunks.push(bytes);
      size += bytes.length;
    } else if (Array.isArray(part)) {
      for (const chunk of part) {
        chunks.push(chunk);
        size += chunk.length;
      }
    } else if (part.length > 0) {
      chunks.push(part);
      size += part.length;
    }
  }
  return { chunks, size };
}

// How this file makes a Blob or File over chunks it already has: the constructor takes its state
// from here when handed the token, which no program holds.
const INTERNAL = Object.freeze({});
let handoff = null;
let blobState; // (value) => a Blob's { chunks, size, type }, or undefined for anything else

function chunksOf(value) {
  const state = blobState(value);
  return state === undefined ? undefined : state.chunks;
}

function makeBlob(chunks, size, type) {
  handoff = { chunks, size, type };
  return new Blob(INTERNAL);
}

function blobOf(value, member) {
  const state = blobState(value);
  if (state === undefined) throw new TypeError(`Blob.prototype.${member}: 'this' is not a Blob`);
  return state;
}

// The blob's bytes in one new buffer: the only copy a read makes.
function readAll(state) {
  const bytes = new Uint8Array(state.size);
  let offset = 0;
  for (const chunk of state.chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

// An operation returning a promise rejects, rather than throws, on a wrong `this`.
function read(value, member, produce) {
  try {
    return Promise.resolve(produce(readAll(blobOf(value, member))));
  } catch (error) {
    return Promise.reject(error);
  }
}

class Blob {
  #state;

  constructor(blobParts = undefined, options = undefined) {
    if (blobParts === INTERNAL && handoff !== null) {
      this.#state = handoff;
      handoff = null;
      return;
    }
    const what = "Failed to construct 'Blob'";
    const parts = blobParts === undefined ? [] : convertBlobParts(blobParts, what);
    const init = dictionary(options, what);
    const endings = convertEndings(init, what);
    const type = convertType(init);
    const { chunks, size } = processParts(parts, endings);
    this.#state = { chunks, size, type };
  }

  static {
    blobState = (value) => {
      if (value === null || typeof value !== "object" || !(#state in value)) return undefined;
      return value.#state;
    };
  }

  get size() {
    return blobOf(this, "size").size;
  }

  get type() {
    return blobOf(this, "type").type;
  }

  // A new Blob over the same chunks (the first and last cut with subarray, which shares them).
  slice(start = undefined, end = undefined, contentType = undefined) {
    const state = blobOf(this, "slice");
    const size = state.size;
    let from = start === undefined ? 0 : clampLongLong(start);
    let to = end === undefined ? size : clampLongLong(end);
    const type = contentType === undefined ? "" : normalizeType(domString(contentType));
    from = from < 0 ? Math.max(size + from, 0) : Math.min(from, size);
    to = to < 0 ? Math.max(size + to, 0) : Math.min(to, size);
    const chunks = [];
    let offset = 0;
    for (const chunk of state.chunks) {
      if (offset >= to) break;
      const chunkEnd = offset + chunk.length;
      if (chunkEnd > from) {
        const a = Math.max(from - offset, 0);
        const b = Math.min(to - offset, chunk.length);
        chunks.push(a === 0 && b === chunk.length ? chunk : chunk.subarray(a, b));
      }
      offset = chunkEnd;
    }
    return makeBlob(chunks, Math.max(to - from, 0), type);
  }

  stream() {
    return blobStream(blobOf(this, "stream"));
  }

  text() {
    // UTF-8 decode: a leading BOM is dropped, invalid bytes become U+FFFD.
    return read(this, "text", (bytes) => new TextDecoder().decode(bytes));
  }

  arrayBuffer() {
    return read(this, "arrayBuffer", (bytes) => bytes.buffer);
  }

  bytes() {
    return read(this, "bytes", (bytes) => bytes);
  }

}
enumerable(Blob.prototype, ["size", "type", "slice", "stream", "text", "arrayBuffer", "bytes"]);

// At most this many bytes per chunk a blob's stream gives.
const STREAM_CHUNK_SIZE = 64 << 10;

// "get stream": a ReadableStream with byte reading support over the blob's chunks. Each pull copies
// the next bytes, up to 64 KB, into a new Uint8Array (a chunk enqueued in a byte stream has its
// buffer transferred, and a blob's chunks are shared), or straight into a BYOB reader's view.
function blobStream(state) {
  const ReadableStream = internals.get("ReadableStream");
  const chunks = state.chunks;
  let left = state.size;
  // The next byte to read is chunks[index][offset].
  let index = 0;
  let offset = 0;
  const copyInto = (target) => {
    let written = 0;
    while (written < target.length) {
      const chunk = chunks[index];
      const count = Math.min(chunk.length - offset, target.length - written);
      target.set(offset === 0 && count === chunk.length ? chunk : chunk.subarray(offset, offset + count), written);
      written += count;
      offset += count;
      if (offset === chunk.length) {
        index++;
        offset = 0;
      }
    }
    left -= written;
  };
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      const request = controller.byobRequest;
      if (left === 0) {
        controller.close();
        if (request) request.respond(0);
        return;
      }
      if (request) {
        const view = request.view;
        const count = Math.min(view.byteLength, left, STREAM_CHUNK_SIZE);
        copyInto(new Uint8Array(view.buffer, view.byteOffset, count));
        request.respond(count);
      } else {
        const count = Math.min(left, STREAM_CHUNK_SIZE);
        const chunk = chunks[index];
        // One chunk holding all these bytes is copied with one slice.
        if (chunk.length - offset >= count) {
          controller.enqueue(chunk.slice(offset, offset + count));
          offset += count;
          left -= count;
          if (offset === chunk.length) {
            index++;
            offset = 0;
          }
        } else {
          const bytes = new Uint8Array(count);
          copyInto(bytes);
          controller.enqueue(bytes);
        }
      }
      if (left === 0) controller.close();
    },
  });
}
toStringTag(Blob.prototype, "Blob");

// ---- File ----------------------------------------------------------------------------------------

let fileState; // (value) => a File's { name, lastModified }, or undefined for anything else
let fileHandoff = null;

function makeFile(chunks, size, type, name, lastModified) {
  fileHandoff = { name, lastModified };
  handoff = { chunks, size, type };
  return new File(INTERNAL, INTERNAL);
}

function fileOf(value, member) {
  const state = fileState(value);
  if (state === undefined) throw new TypeError(`File.prototype.${member}: 'this' is not a File`);
  return state;
}

class File extends Blob {
  #file;

  constructor(fileBits, fileName, options = undefined) {
    if (fileBits === INTERNAL && fileHandoff !== null) {
      super(INTERNAL);
      this.#file = fileHandoff;
      fileHandoff = null;
      return;
    }
    const what = "Failed to construct 'File'";
    requireArguments(arguments.length, 2, what);
    const parts = convertBlobParts(fileBits, what);
    const name = usvString(fileName);
    const init = dictionary(options, what);
    const endings = convertEndings(init, what);
    const lastModified = init === undefined || init.lastModified === undefined ? Date.now() : longLong(init.lastModified);
    const type = convertType(init);
    const { chunks, size } = processParts(parts, endings);
    handoff = { chunks, size, type };
    super(INTERNAL);
    this.#file = { name, lastModified };
  }

  static {
    fileState = (value) => {
      if (value === null || typeof value !== "object" || !(#file in value)) return undefined;
      return value.#file;
    };
  }

  get name() {
    return fileOf(this, "name").name;
  }

  get lastModified() {
    return fileOf(this, "lastModified").lastModified;
  }

  get webkitRelativePath() {
    fileOf(this, "webkitRelativePath");
    return "";
  }
}
enumerable(File.prototype, ["name", "lastModified", "webkitRelativePath"]);
toStringTag(File.prototype, "File");

// ---- FormData ------------------------------------------------------------------------------------

let entriesOf; // (value) => a FormData's entry list, or undefined for anything else

function formDataOf(value, member) {
  const entries = entriesOf(value);
  if (entries === undefined) throw new TypeError(`FormData.prototype.${member}: 'this' is not a FormData`);
  return entries;
}

// "create an entry": a string value as a USVString, a Blob as a File (named "blob" when it is not
// one), renamed to `filename` when one is given; the bytes are shared, never copied.
function createEntry(name, value, filename, member) {
  name = usvString(name);
  const state = blobState(value);
  if (state === undefined) return [name, usvString(value)];
  if (filename !== undefined) filename = usvString(filename);
  const file = fileState(value);
  if (file === undefined) {
    return [name, makeFile(state.chunks, state.size, state.type, filename === undefined ? "blob" : filename, Date.now())];
  }
  if (filename === undefined) return [name, value];
  return [name, makeFile(state.chunks, state.size, state.type, filename, file.lastModified)];
}

// Web IDL's overloads of append and set: a Blob value, or three arguments, take the Blob overload.
function entryFrom(args, member) {
  requireArguments(args.length, 2, `Failed to execute '${member}' on 'FormData'`);
  if (args.length > 2 && blobState(args[1]) === undefined) {
    throw new TypeError(`Failed to execute '${member}' on 'FormData': parameter 2 is not of type 'Blob'.`);
  }
  return createEntry(args[0], args[1], args.length > 2 ? args[2] : undefined, member);
}

class FormData {
  #entries = [];

  constructor(form = undefined, submitter = undefined) {
    if (form !== undefined) {
      throw new TypeError("Failed to construct 'FormData': parameter 1 is not of type 'HTMLFormElement' (there are no forms here)");
    }
  }

  static {
    entriesOf = (value) => {
      if (value === null || typeof value !== "object" || !(#entries in value)) return undefined;
      return value.#entries;
    };
  }

  append(name, value, filename = undefined) {
    const entries = formDataOf(this, "append");
    entries.push(entryFrom(arguments, "append"));
  }

  delete(name) {
    const entries = formDataOf(this, "delete");
    requireArguments(arguments.length, 1, "Failed to execute 'delete' on 'FormData'");
    const key = usvString(name);
    this.#entries = entries.filter((entry) => entry[0] !== key);
  }

  get(name) {
    const entries = formDataOf(this, "get");
    requireArguments(arguments.length, 1, "Failed to execute 'get' on 'FormData'");
    const key = usvString(name);
    const entry = entries.find((e) => e[0] === key);
    return entry === undefined ? null : entry[1];
  }

  getAll(name) {
    const entries = formDataOf(this, "getAll");
    requireArguments(arguments.length, 1, "Failed to execute 'getAll' on 'FormData'");
    const key = usvString(name);
    return entries.filter((e) => e[0] === key).map((e) => e[1]);
  }

  has(name) {
    const entries = formDataOf(this, "has");
    requireArguments(arguments.length, 1, "Failed to execute 'has' on 'FormData'");
    const key = usvString(name);
    return entries.some((e) => e[0] === key);
  }

  set(name, value, filename = undefined) {
    const entries = formDataOf(this, "set");
    const entry = entryFrom(arguments, "set");
    const index = entries.findIndex((e) => e[0] === entry[0]);
    if (index < 0) {
      entries.push(entry);
      return;
    }
    this.#entries = entries.filter((e, i) => i === index || e[0] !== entry[0]);
    this.#entries[index] = entry;
  }

  entries() {
    formDataOf(this, "entries");
    return formDataIterator(this, "entries");
  }

  keys() {
    formDataOf(this, "keys");
    return formDataIterator(this, "keys");
  }

  values() {
    formDataOf(this, "values");
    return formDataIterator(this, "values");
  }

  forEach(callback, thisArg = undefined) {
    formDataOf(this, "forEach");
    requireArguments(arguments.length, 1, "Failed to execute 'forEach' on 'FormData'");
    if (typeof callback !== "function") {
      throw new TypeError("Failed to execute 'forEach' on 'FormData': parameter 1 is not of type 'Function'");
    }
    // The list is read again on each step: the callback may change it.
    for (let i = 0; i < this.#entries.length; i++) {
      const entry = this.#entries[i];
      callback.call(thisArg, entry[1], entry[0], this);
    }
  }
}
enumerable(FormData.prototype, ["append", "delete", "get", "getAll", "has", "set", "entries", "keys", "values", "forEach"]);
Object.defineProperty(FormData.prototype, Symbol.iterator, {
  value: FormData.prototype.entries, writable: true, enumerable: false, configurable: true,
});
toStringTag(FormData.prototype, "FormData");

const formDataIterator = pairIterator("FormData", entriesOf);

// ---- multipart/form-data -------------------------------------------------------------------------

// Every lone CR and lone LF becomes CRLF.
function normalizeLineBreaks(text) {
  return text.replace(/\r\n|\r|\n/g, "\r\n");
}

// A name or filename in a Content-Disposition header: LF, CR and '"' percent-encoded.
function escapeHeaderName(text) {
  return text.replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/"/g, "%22");
}

function randomBoundary() {
  let digits = "";
  for (let i = 0; i < 4; i++) digits += Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, "0");
  return `----formdata-hybrid-${digits}`;
}

// The HTML Standard's multipart/form-data encoding algorithm (UTF-8), over a FormData's entries:
// { boundary, contentType, body }, where body is a Blob of contentType whose files' bytes are the
// entries' own chunks, not copies. `boundary` is for tests that need a fixed one.
function encodeMultipart(formData, boundary = randomBoundary()) {
  const entries = entriesOf(formData);
  if (entries === undefined) throw new TypeError("encodeMultipart: expected a FormData");
  const chunks = [];
  let size = 0;
  const add = (chunk) => {
    if (chunk.length === 0) return;
    chunks.push(chunk);
    size += chunk.length;
  };
  for (const [name, value] of entries) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeHeaderName(normalizeLineBreaks(name))}"`;
    const file = blobState(value);
    if (file === undefined) {
      add(encoder.encode(`${head}\r\n\r\n${normalizeLineBreaks(value)}\r\n`));
      continue;
    }
    head += `; filename="${escapeHeaderName(fileState(value).name)}"\r\n`;
    head += `Content-Type: ${file.type === "" ? "application/octet-stream" : file.type}\r\n\r\n`;
    add(encoder.encode(head));
    for (const chunk of file.chunks) add(chunk);
    add(encoder.encode("\r\n"));
  }
  add(encoder.encode(`--${boundary}--\r\n`));
  const contentType = `multipart/form-data; boundary=${boundary}`;
  return { boundary, contentType, body: makeBlob(chunks, size, contentType) };
}

define("Blob", Blob);
define("File", File);
define("FormData", FormData);
internals.provide("encodeMultipart", encodeMultipart);
internals.provide("isBlob", (value) => blobState(value) !== undefined);
// A clone of a Blob or File shares its bytes (they never change); a FormData cannot be cloned.
internals.platformObjects.register((value) => blobState(value) !== undefined, (value) => {
  const state = blobState(value);
  const file = fileState(value);
  if (file === undefined) return makeBlob(state.chunks, state.size, state.type);
  return makeFile(state.chunks, state.size, state.type, file.name, file.lastModified);
});
internals.platformObjects.register((value) => entriesOf(value) !== undefined, null);
