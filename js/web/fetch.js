"use strict";
// The WHATWG Fetch Standard (https://fetch.spec.whatwg.org/): Headers, Request, Response and
// fetch(), over the network service's fetch, read and cancel actions. Where the standard leaves
// room for a server runtime, this does what node's undici and Deno do:
//
// - There are no forbidden request or response header names (a host sends what it is told, reads
//   Set-Cookie, and answers redirects itself), so the "request" and "response" guards refuse
//   nothing; "immutable" and "request-no-cors" work as the standard says. fetch() refuses only the
//   headers that would change how the message is framed, as undici's transport does.
// - There is no CORS and no origin: `mode`, `referrer`, `referrerPolicy`, `integrity`, `keepalive`
//   and `priority` are checked and kept on the Request, and do nothing else. A fetched response is
//   "basic", and `redirect: "manual"` answers with the 3xx itself, not an opaque-redirect filtered
//   response, as in node and Deno. `credentials: "omit"` leaves the app's cookie jar out.
// - There is no base URL, so a relative URL is a TypeError, as in node, unless the program has
//   made itself a `location` global (Deno's --location; the web-platform-tests' pages do).
//
// A body is kept as what it was made from (bytes, a Blob, a ReadableStream, or the network's id of
// a body still arriving), and text(), json(), arrayBuffer(), bytes(), blob() and formData() read
// the bytes and the Blob straight; a ReadableStream is made only when `body` is read or the body
// is cloned. A small answer comes whole with its head, so a GET read with text() costs one bridge
// call and no stream. Blob, FormData and streams are loaded at the first body that needs them.

const { requireArguments, dictionary, enumerable, toStringTag, pairIterator, unserializable } = internals.get("webidl");
const URL = internals.get("URL");
const URLSearchParams = internals.get("URLSearchParams");
const TextEncoder = internals.get("TextEncoder");
const TextDecoder = internals.get("TextDecoder");

// The bridge's call, taken once: `Hybrid` is the runtime's own non-writable global.
const hybridCall = globalThis.Hybrid.call;

const parseURL = URL.parse;
const urlHref = Object.getOwnPropertyDescriptor(URL.prototype, "href").get;
const urlUsername = Object.getOwnPropertyDescriptor(URL.prototype, "username").get;
const urlPassword = Object.getOwnPropertyDescriptor(URL.prototype, "password").get;
const searchParamsToString = URLSearchParams.prototype.toString;

const encoder = new TextEncoder();
const utf8 = new TextDecoder();
const noop = () => {};

// ---- Other groups, loaded when a body first needs them ------------------------------------------

let streamsGroup = null;
function streams() {
  if (streamsGroup === null) {
    const ReadableStream = internals.get("ReadableStream");
    const Reader = internals.get("ReadableStreamDefaultReader");
    streamsGroup = {
      ReadableStream,
      isReadableStream: internals.get("isReadableStream"),
      isLocked: internals.get("isReadableStreamLocked"),
      isDisturbed: internals.get("isReadableStreamDisturbed"),
      createReadableStream: internals.get("createReadableStream"),
      getReader: ReadableStream.prototype.getReader,
      tee: ReadableStream.prototype.tee,
      cancel: ReadableStream.prototype.cancel,
      read: Reader.prototype.read,
      cancelReader: Reader.prototype.cancel,
    };
  }
  return streamsGroup;
}

let blobGroup = null;
function blobs() {
  if (blobGroup === null) {
    const Blob = internals.get("Blob");
    const FormData = internals.get("FormData");
    blobGroup = {
      Blob,
      File: internals.get("File"),
      FormData,
      isBlob: internals.get("isBlob"),
      encodeMultipart: internals.get("encodeMultipart"),
      blobBytes: Blob.prototype.bytes,
      blobStream: Blob.prototype.stream,
      blobType: Object.getOwnPropertyDescriptor(Blob.prototype, "type").get,
      formDataAppend: FormData.prototype.append,
      formDataHas: FormData.prototype.has,
    };
  }
  return blobGroup;
}

let eventsGroup = null;
function aborting() {
  if (eventsGroup === null) {
    const AbortSignal = internals.get("AbortSignal");
    eventsGroup = {
      any: AbortSignal.any,
      isAbortSignal: internals.get("isAbortSignal"),
      addAbortAlgorithm: internals.get("addAbortAlgorithm"),
      removeAbortAlgorithm: internals.get("removeAbortAlgorithm"),
      aborted: Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted").get,
      reason: Object.getOwnPropertyDescriptor(AbortSignal.prototype, "reason").get,
    };
  }
  return eventsGroup;
}

// ---- Web IDL conversions -----------------------------------------------------------------------

function isObject(value) {
  return value !== null && (typeof value === "object" || typeof value === "function");
}

function usvString(value) {
  return `${value}`.toWellFormed();
}

function byteString(value, what) {
  const text = `${value}`;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) {
      throw new TypeError(`${what}: Cannot convert argument to a ByteString because the character at index ${i} has a value of ${code} which is greater than 255.`);
    }
  }
  return text;
}

function enumValue(value, allowed, type, what) {
  const text = `${value}`;
  if (!allowed.includes(text)) throw new TypeError(`${what}: The provided value '${text}' is not a valid enum value of type ${type}.`);
  return text;
}

// [EnforceRange] unsigned short.
function enforceUnsignedShort(value, what) {
  const number = +value;
  if (!Number.isFinite(number)) throw new TypeError(`${what}: Value is not a finite number.`);
  const integer = Math.trunc(number);
  if (integer < 0 || integer > 0xffff) throw new TypeError(`${what}: Value is outside the 'unsigned short' value range.`);
  return integer === 0 ? 0 : integer;
}

// unsigned short: modulo 2^16.
function unsignedShort(value) {
  const number = +value;
  if (!Number.isFinite(number)) return 0;
  const integer = Math.trunc(number) % 0x10000;
  return integer < 0 ? integer + 0x10000 : integer === 0 ? 0 : integer;
}

// Web IDL's "create a sequence from an iterable", with the @@iterator method already got.
function sequence(value, method, what) {
  const iterator = method.call(value);
  if (!isObject(iterator)) throw new TypeError(`${what}: the iterator is not an object`);
  const next = iterator.next;
  const items = [];
  for (;;) {
    const step = next.call(iterator);
    if (!isObject(step)) throw new TypeError(`${what}: the iterator's result is not an object`);
    if (step.done) return items;
    items.push(step.value);
  }
}

// Brand checks through the built-ins' own getters, which no program can replace once taken.
// Brand checks and a BufferSource's parts through the built-ins' own getters (webidl.js).
const { typedArrayTag, typedArrayBuffer, typedArrayByteOffset, typedArrayByteLength, arrayBufferByteLength, arrayBufferSlice, hasBrand, bufferSourceBytes } = internals.get("webidl").buffers;

function isUint8Array(value) {
  return typedArrayTag.call(value) === "Uint8Array";
}

function isSearchParams(value) {
  return hasBrand(searchParamsToString, value);
}

function isFormData(value) {
  const { formDataHas } = blobs();
  try {
    formDataHas.call(value, "");
    return true;
  } catch {
    return false;
  }
}

// ---- HTTP tokens, and MIME types (the MIME Sniffing Standard) ---------------------------------

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const QUOTED_STRING_TOKEN = /^[\t\x20-\x7e\x80-\xff]*$/;
// An HTTP reason-phrase: HTAB, SP, VCHAR and obs-text.
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

function isHTTPWhitespace(c) {
  return c === "\t" || c === "\n" || c === "\r" || c === " ";
}

// "Collect an HTTP quoted string" from `input` at `position` (at a '"'): [value, next position].
// With extractValue false, the value is the quoted text as it stands.
function collectQuotedString(input, position, extractValue) {
  const start = position;
  let value = "";
  position++;
  for (;;) {
    while (position < input.length && input[position] !== '"' && input[position] !== "\\") value += input[position++];
    if (position >= input.length) break;
    const quoteOrBackslash = input[position++];
    if (quoteOrBackslash === "\\") {
      if (position >= input.length) {
        value += "\\";
        break;
      }
      value += input[position++];
    } else {
      break;
    }
  }
  return [extractValue ? value : input.slice(start, position), position];
}

// "Parse a MIME type": { type, subtype, parameters } or null.
function parseMimeType(text) {
  const input = text.replace(HTTP_WHITESPACE, "");
  let position = input.indexOf("/");
  if (position === -1) return null;
  const type = input.slice(0, position);
  if (!TOKEN.test(type)) return null;
  position++;
  let end = input.indexOf(";", position);
  if (end === -1) end = input.length;
  const subtype = input.slice(position, end).replace(/[\t\n\r ]+$/, "");
  if (!TOKEN.test(subtype)) return null;
  position = end;
  const mimeType = { type: type.toLowerCase(), subtype: subtype.toLowerCase(), parameters: new Map() };
  while (position < input.length) {
    position++;
    while (position < input.length && isHTTPWhitespace(input[position])) position++;
    let nameEnd = position;
    while (nameEnd < input.length && input[nameEnd] !== ";" && input[nameEnd] !== "=") nameEnd++;
    const name = input.slice(position, nameEnd).toLowerCase();
    position = nameEnd;
    if (position < input.length) {
      if (input[position] === ";") continue;
      position++;
    }
    if (position >= input.length) break;
    let value;
    if (input[position] === '"') {
      [value, position] = collectQuotedString(input, position, true);
      while (position < input.length && input[position] !== ";") position++;
    } else {
      let valueEnd = input.indexOf(";", position);
      if (valueEnd === -1) valueEnd = input.length;
      value = input.slice(position, valueEnd).replace(/[\t\n\r ]+$/, "");
      position = valueEnd;
      if (value === "") continue;
    }
    if (name !== "" && TOKEN.test(name) && QUOTED_STRING_TOKEN.test(value) && !mimeType.parameters.has(name)) {
      mimeType.parameters.set(name, value);
    }
  }
  return mimeType;
}

function essence(mimeType) {
  return `${mimeType.type}/${mimeType.subtype}`;
}

function serializeMimeType(mimeType) {
  let text = essence(mimeType);
  for (const [name, value] of mimeType.parameters) {
    const plain = value !== "" && TOKEN.test(value);
    text += `;${name}=${plain ? value : `"${value.replace(/(["\\])/g, "\\$1")}"`}`;
  }
  return text;
}

// "Get, decode, and split" a header value: its comma-separated parts, commas in quotes kept.
function splitHeaderValue(value) {
  const values = [];
  let position = 0;
  let temporary = "";
  for (;;) {
    while (position < value.length && value[position] !== '"' && value[position] !== ",") temporary += value[position++];
    if (position < value.length && value[position] === '"') {
      let quoted;
      [quoted, position] = collectQuotedString(value, position, false);
      temporary += quoted;
      if (position < value.length) continue;
    }
    values.push(temporary.replace(/^[\t ]+|[\t ]+$/g, ""));
    temporary = "";
    if (position >= value.length) return values;
    position++;
  }
}

// "Extract a MIME type" from a header list: the last Content-Type that parses, keeping the charset
// of an earlier one of the same essence. Null when there is none.
function extractMimeType(list) {
  const value = listGet(list, "content-type");
  if (value === null) return null;
  let charset = null;
  let currentEssence = null;
  let mimeType = null;
  for (const part of splitHeaderValue(value)) {
    const parsed = parseMimeType(part);
    if (parsed === null || essence(parsed) === "*/*") continue;
    mimeType = parsed;
    if (essence(mimeType) !== currentEssence) {
      charset = mimeType.parameters.get("charset") ?? null;
      currentEssence = essence(mimeType);
    } else if (!mimeType.parameters.has("charset") && charset !== null) {
      mimeType.parameters.set("charset", charset);
    }
  }
  return mimeType;
}

// ---- Header lists ------------------------------------------------------------------------------

// A header list: each name once, lower-cased, with the name as first given and its values in
// order; `sorted` is the "sort and combine" the iterator reads, made again after a change.
function newHeaderList() {
  return { map: new Map(), sorted: null };
}

function copyHeaderList(list) {
  const copy = newHeaderList();
  for (const [key, entry] of list.map) copy.map.set(key, { name: entry.name, values: entry.values.slice() });
  return copy;
}

function listGet(list, key) {
  const entry = list.map.get(key);
  if (entry === undefined) return null;
  return entry.values.length === 1 ? entry.values[0] : entry.values.join(", ");
}

function listAppend(list, name, value) {
  const key = name.toLowerCase();
  const entry = list.map.get(key);
  if (entry === undefined) list.map.set(key, { name, values: [value] });
  else entry.values.push(value);
  list.sorted = null;
}

function listSet(list, name, value) {
  const key = name.toLowerCase();
  const entry = list.map.get(key);
  if (entry === undefined) list.map.set(key, { name, values: [value] });
  else entry.values = [value];
  list.sorted = null;
}

function listDelete(list, key) {
  if (list.map.delete(key)) list.sorted = null;
}

// "Sort and combine": names in order, values combined with ", ", except Set-Cookie's, one each.
function sortedPairs(list) {
  if (list.sorted !== null) return list.sorted;
  const pairs = [];
  for (const key of [...list.map.keys()].sort()) {
    const values = list.map.get(key).values;
    if (key === "set-cookie") {
      for (const value of values) pairs.push([key, value]);
    } else {
      pairs.push([key, values.length === 1 ? values[0] : values.join(", ")]);
    }
  }
  list.sorted = pairs;
  return pairs;
}

// Each header as it is in the list, names as given.
function rawPairs(list) {
  const pairs = [];
  for (const entry of list.map.values()) {
    for (const value of entry.values) pairs.push([entry.name, value]);
  }
  return pairs;
}

// ---- Headers -----------------------------------------------------------------------------------

function normalizeHeaderValue(value) {
  if (value.length === 0) return value;
  if (!isHTTPWhitespace(value[0]) && !isHTTPWhitespace(value[value.length - 1])) return value;
  return value.replace(HTTP_WHITESPACE, "");
}

function checkHeaderName(name, what) {
  if (!TOKEN.test(name)) throw new TypeError(`${what}: "${name}" is an invalid header name.`);
}

// "Validate" a header for a guard: a bad name or value, or any change to immutable headers, is a
// TypeError. No name is forbidden here, so nothing is left out silently.
function validateHeader(name, value, guard, what) {
  checkHeaderName(name, what);
  if (/[\0\r\n]/.test(value)) throw new TypeError(`${what}: "${value}" is an invalid header value.`);
  if (guard === "immutable") throw new TypeError(`${what}: the headers are immutable.`);
}

const NO_CORS_SAFELISTED_NAMES = ["accept", "accept-language", "content-language", "content-type"];

// "CORS-unsafe request-header byte": a control other than HT, and "():<>?@[\]{} and DEL.
const CORS_UNSAFE_BYTE = /[\0-\x08\x0a-\x1f"():<>?@[\\\]{}\x7f]/;

// A no-CORS-safelisted request-header: what a "no-cors" request may carry.
function isNoCorsSafelisted(name, value) {
  const key = name.toLowerCase();
  if (!NO_CORS_SAFELISTED_NAMES.includes(key) || value.length > 128) return false;
  switch (key) {
    case "accept":
      return !CORS_UNSAFE_BYTE.test(value);
    case "accept-language":
    case "content-language":
      return /^[0-9A-Za-z *,\-.;=]*$/.test(value);
    default: {
      if (CORS_UNSAFE_BYTE.test(value)) return false;
      const mimeType = parseMimeType(value);
      return mimeType !== null && ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"].includes(essence(mimeType));
    }
  }
}

function appendHeader(state, name, value, what) {
  value = normalizeHeaderValue(value);
  validateHeader(name, value, state.guard, what);
  if (state.guard === "request-no-cors") {
    const existing = listGet(state.list, name.toLowerCase());
    if (!isNoCorsSafelisted(name, existing === null ? value : `${existing}, ${value}`)) return;
  }
  listAppend(state.list, name, value);
}

// HeadersInit (a sequence of pairs, or a record), converted to [name, value] ByteString pairs.
function convertHeadersInit(init, what) {
  if (!isObject(init)) {
    throw new TypeError(`${what}: The provided value is not of type '(record<ByteString, ByteString> or sequence<sequence<ByteString>>)'.`);
  }
  const method = init[Symbol.iterator];
  if (method !== undefined && method !== null) {
    if (typeof method !== "function") throw new TypeError(`${what}: The object must have a callable @@iterator property.`);
    // Another Headers object, iterated as it would iterate itself.
    if (method === headersEntries && headersState(init) !== undefined) {
      return sortedPairs(headersState(init).list).map(([name, value]) => [name, value]);
    }
    return sequence(init, method, what).map((item) => {
      if (!isObject(item)) throw new TypeError(`${what}: The provided value cannot be converted to a sequence.`);
      const itemMethod = item[Symbol.iterator];
      if (typeof itemMethod !== "function") throw new TypeError(`${what}: The object must have a callable @@iterator property.`);
      const pair = sequence(item, itemMethod, what);
      if (pair.length !== 2) throw new TypeError(`${what}: expected name/value pair to be length 2, found ${pair.length}.`);
      return [byteString(pair[0], what), byteString(pair[1], what)];
    });
  }
  const pairs = [];
  for (const key of Reflect.ownKeys(init)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(init, key);
    if (descriptor !== undefined && descriptor.enumerable) pairs.push([byteString(key, what), byteString(init[key], what)]);
  }
  return pairs;
}

function fillHeaders(state, pairs, what) {
  for (const [name, value] of pairs) appendHeader(state, name, value, what);
}

// How this file makes a Headers over a list it already has: the constructor takes its state
// from here when handed the token, which no program holds.
const INTERNAL = Object.freeze({});
let headersHandoff = null;
let headersState; // (value) => a Headers' { list, guard }, or undefined for anything else

function makeHeaders(list, guard) {
  headersHandoff = { list, guard };
  return new Headers(INTERNAL);
}

function headersOf(value, member) {
  const state = headersState(value);
  if (state === undefined) throw new TypeError(`Headers.prototype.${member}: 'this' is not a Headers`);
  return state;
}

class Headers {
  #state;

  constructor(init = undefined) {
    if (init === INTERNAL && headersHandoff !== null) {
      this.#state = headersHandoff;
      headersHandoff = null;
      return;
    }
    const what = "Failed to construct 'Headers'";
    this.#state = { list: newHeaderList(), guard: "none" };
    if (init !== undefined) fillHeaders(this.#state, convertHeadersInit(init, what), what);
  }

  static {
    headersState = (value) => (isObject(value) && #state in value ? value.#state : undefined);
  }

  append(name, value) {
    const state = headersOf(this, "append");
    const what = "Failed to execute 'append' on 'Headers'";
    requireArguments(arguments.length, 2, what);
    appendHeader(state, byteString(name, what), byteString(value, what), what);
  }

  delete(name) {
    const state = headersOf(this, "delete");
    const what = "Failed to execute 'delete' on 'Headers'";
    requireArguments(arguments.length, 1, what);
    const text = byteString(name, what);
    validateHeader(text, "", state.guard, what);
    const key = text.toLowerCase();
    if (state.guard === "request-no-cors" && !NO_CORS_SAFELISTED_NAMES.includes(key)) return;
    listDelete(state.list, key);
  }

  get(name) {
    const state = headersOf(this, "get");
    const what = "Failed to execute 'get' on 'Headers'";
    requireArguments(arguments.length, 1, what);
    const text = byteString(name, what);
    checkHeaderName(text, what);
    return listGet(state.list, text.toLowerCase());
  }

  getSetCookie() {
    const entry = headersOf(this, "getSetCookie").list.map.get("set-cookie");
    return entry === undefined ? [] : entry.values.slice();
  }

  has(name) {
    const state = headersOf(this, "has");
    const what = "Failed to execute 'has' on 'Headers'";
    requireArguments(arguments.length, 1, what);
    const text = byteString(name, what);
    checkHeaderName(text, what);
    return state.list.map.has(text.toLowerCase());
  }

  set(name, value) {
    const state = headersOf(this, "set");
    const what = "Failed to execute 'set' on 'Headers'";
    requireArguments(arguments.length, 2, what);
    const text = byteString(name, what);
    const normalized = normalizeHeaderValue(byteString(value, what));
    validateHeader(text, normalized, state.guard, what);
    if (state.guard === "request-no-cors" && !isNoCorsSafelisted(text, normalized)) return;
    listSet(state.list, text, normalized);
  }

  entries() {
    headersOf(this, "entries");
    return headersIterator(this, "entries");
  }

  keys() {
    headersOf(this, "keys");
    return headersIterator(this, "keys");
  }

  values() {
    headersOf(this, "values");
    return headersIterator(this, "values");
  }

  forEach(callback, thisArg = undefined) {
    const state = headersOf(this, "forEach");
    const what = "Failed to execute 'forEach' on 'Headers'";
    requireArguments(arguments.length, 1, what);
    if (typeof callback !== "function") throw new TypeError(`${what}: parameter 1 is not of type 'Function'`);
    // The pairs are read again on each step: the callback may change them.
    for (let i = 0; i < sortedPairs(state.list).length; i++) {
      const [name, value] = sortedPairs(state.list)[i];
      callback.call(thisArg, value, name, this);
    }
  }
}
enumerable(Headers.prototype, ["append", "delete", "get", "getSetCookie", "has", "set", "entries", "keys", "values", "forEach"]);
const headersEntries = Headers.prototype.entries;
Object.defineProperty(Headers.prototype, Symbol.iterator, { value: headersEntries, writable: true, enumerable: false, configurable: true });
toStringTag(Headers.prototype, "Headers");

const headersIterator = pairIterator("Headers", (headers) => sortedPairs(headersState(headers).list));

// ---- Bodies ------------------------------------------------------------------------------------

// A body (the standard's "body": a stream, and the source it was made from). Exactly one of
// bytes, blob, streamId and stream holds it until it is read; reading without a stream sets
// `used`, since there is no stream to be disturbed.
class BodyState {
  constructor() {
    this.bytes = null; // Uint8Array: the whole body, owned by nobody else
    this.text = null; // string: a fetched body that is UTF-8, kept as text until its bytes are asked for
    this.blob = null; // Blob
    this.streamId = null; // the network's id of a body still arriving (network.read)
    this.stream = null; // ReadableStream: made from one of the above, or the program's own
    this.controller = null; // the controller of a stream made here, for an abort to error
    this.given = false; // the stream is the program's: the body has no source
    this.used = false;
    this.aborted = false; // the fetch was aborted before the body was read; `reason` says why
    this.reason = undefined;
    this.signal = null; // the fetch's signal that errors this body when it aborts (followAbort)
    this.algorithm = null;
  }
}

// A body kept as text gives its bytes: what everything but text() and json() reads.
function textToBytes(body) {
  if (body.text !== null) {
    body.bytes = encoder.encode(body.text);
    body.text = null;
  }
}

// The body of a program's BodyInit, classified now (as Web IDL converts a union) and extracted
// later, once the rest of the dictionary is read: { kind, value }.
function convertBodyInit(value) {
  if (isObject(value)) {
    const bytes = bufferSourceBytes(value);
    if (bytes !== undefined) return { kind: "bytes", value: bytes };
    if (isSearchParams(value)) return { kind: "search-params", value };
    if (blobs().isBlob(value)) return { kind: "blob", value };
    if (isFormData(value)) return { kind: "form-data", value };
    if (streams().isReadableStream(value)) return { kind: "stream", value };
  }
  return { kind: "string", value: usvString(value) };
}

// "Extract a body": { body, type }, type being the Content-Type it implies, or null.
function extractBody(init, keepalive, what) {
  const body = new BodyState();
  switch (init.kind) {
    case "string":
      body.bytes = encoder.encode(init.value);
      return { body, type: "text/plain;charset=UTF-8" };
    case "bytes":
      body.bytes = init.value;
      return { body, type: null };
    case "search-params":
      body.bytes = encoder.encode(searchParamsToString.call(init.value));
      return { body, type: "application/x-www-form-urlencoded;charset=UTF-8" };
    case "blob": {
      body.blob = init.value;
      const type = blobs().blobType.call(init.value);
      return { body, type: type === "" ? null : type };
    }
    case "form-data": {
      const { contentType, body: blob } = blobs().encodeMultipart(init.value);
      body.blob = blob;
      return { body, type: contentType };
    }
    default: {
      const { isLocked, isDisturbed } = streams();
      if (keepalive) throw new TypeError(`${what}: a keepalive request cannot have a ReadableStream body.`);
      if (isLocked(init.value) || isDisturbed(init.value)) throw new TypeError(`${what}: the ReadableStream body is disturbed or locked.`);
      body.stream = init.value;
      body.given = true;
      return { body, type: null };
    }
  }
}

function isUnusable(body) {
  if (body === null) return false;
  if (body.used) return true;
  if (body.stream === null) return false;
  const { isLocked, isDisturbed } = streams();
  return isDisturbed(body.stream) || isLocked(body.stream);
}

function isBodyUsed(body) {
  return body !== null && (body.used || (body.stream !== null && streams().isDisturbed(body.stream)));
}

const streamOptions = Object.freeze({ __proto__: null, highWaterMark: 0 });
// A body still arriving reads one chunk ahead of its reader, as undici's does: a transfer that fails
// after the chunk a reader took errors the stream (reader.closed rejects) without another read.
// Nothing is read before `body` is.
const networkStreamOptions = Object.freeze({ __proto__: null, highWaterMark: 65536 });

// The body's ReadableStream, made now if it has none yet.
function streamOf(body) {
  if (body.stream !== null) return body.stream;
  textToBytes(body);
  const { ReadableStream, createReadableStream, cancel, getReader } = streams();
  if (body.aborted) {
    body.stream = createReadableStream({ start: (controller) => controller.error(body.reason) });
  } else if (body.used) {
    // Read already: closed, disturbed and locked, as a stream read to its end is.
    body.stream = createReadableStream({});
    cancel.call(body.stream).catch(noop);
    getReader.call(body.stream);
  } else if (body.bytes !== null) {
    body.stream = new ReadableStream(bytesSource(body), streamOptions);
  } else if (body.blob !== null) {
    body.stream = blobs().blobStream.call(body.blob);
    body.blob = null;
  } else {
    body.stream = new ReadableStream(networkSource(body), networkStreamOptions);
  }
  return body.stream;
}

// A byte stream over whole bytes, handed over at the first read (until then an abort can still
// error it, as it can a stream whose bytes are queued).
function bytesSource(body) {
  const bytes = body.bytes;
  body.bytes = null;
  return {
    __proto__: null,
    type: "bytes",
    start(controller) {
      body.controller = controller;
      // An empty body has ended already: an abort has nothing left to error.
      if (bytes.length === 0) {
        controller.close();
        detachBody(body);
      }
    },
    pull(controller) {
      controller.enqueue(bytes);
      controller.close();
      detachBody(body);
    },
  };
}

// A byte stream over a body still arriving: each pull is one network.read (one chunk read ahead,
// networkStreamOptions), and cancelling it ends the transfer.
function networkSource(body) {
  const stream = body.streamId;
  return {
    __proto__: null,
    type: "bytes",
    start(controller) {
      body.controller = controller;
    },
    async pull(controller) {
      let answer;
      try {
        do answer = await hybridCall("network", "read", { __proto__: null, stream });
        while (!answer.done && answer.bytes.length === 0);
      } catch (error) {
        // A read cut short by an abort has errored the stream already.
        detachBody(body);
        controller.error(new TypeError("terminated", { cause: error }));
        return;
      }
      if (answer.done) {
        detachBody(body);
        const request = controller.byobRequest;
        controller.close();
        if (request !== null) request.respond(0);
        return;
      }
      controller.enqueue(answer.bytes);
    },
    cancel() {
      cancelNetworkBody(body);
    },
  };
}

// A Response collected before its body was read lets go of the network's transfer, which would
// otherwise stay paused, holding its connection, for the rest of the run.
const unreadBodies = new FinalizationRegistry((stream) => {
  hybridCall("network", "cancel", { __proto__: null, stream }).catch(noop);
});

// The body has ended, one way or another: it no longer follows its fetch's signal, and its
// network transfer (if any) needs no collecting.
function detachBody(body) {
  if (body.streamId !== null) {
    unreadBodies.unregister(body);
    body.streamId = null;
  }
  if (body.algorithm !== null) {
    aborting().removeAbortAlgorithm(body.signal, body.algorithm);
    body.signal = null;
    body.algorithm = null;
  }
}

function cancelNetworkBody(body) {
  const stream = body.streamId;
  detachBody(body);
  if (stream !== null) hybridCall("network", "cancel", { __proto__: null, stream }).catch(noop);
}

// A fetch's response body errors when the fetch's signal aborts, until it has been read. The
// signal holds the body weakly: a long-lived signal does not keep unread responses alive.
function followAbort(body, signal) {
  const ref = new WeakRef(body);
  const algorithm = () => {
    const target = ref.deref();
    if (target !== undefined) abortBody(target, aborting().reason.call(signal));
  };
  aborting().addAbortAlgorithm(signal, algorithm);
  body.signal = signal;
  body.algorithm = algorithm;
}

function abortBody(body, reason) {
  if (body.used) return;
  cancelNetworkBody(body);
  body.aborted = true;
  body.reason = reason;
  body.bytes = null;
  body.text = null;
  body.blob = null;
  // A clone's branch has no controller: erroring the stream it was teed from errors it.
  if (body.controller !== null) body.controller.error(reason);
}

// "Clone a body": whole bytes are copied, a Blob shared, a stream teed.
function cloneBody(body) {
  const copy = new BodyState();
  copy.aborted = body.aborted;
  copy.reason = body.reason;
  if (body.stream === null && body.text !== null) {
    copy.text = body.text;
  } else if (body.stream === null && body.bytes !== null) {
    copy.bytes = body.bytes.slice();
  } else if (body.stream === null && body.blob !== null) {
    copy.blob = body.blob;
  } else if (body.stream !== null || body.streamId !== null) {
    const { tee, getReader } = streams();
    const [first, second] = tee.call(streamOf(body));
    body.stream = first;
    // The standard tees with cloneForBranch2: the copy's chunks are clones, not the same objects.
    // A stream made here is a byte stream, whose tee copies them already.
    copy.stream = body.given ? readerStream(getReader.call(second), internals.get("structuredClone")) : second;
    copy.given = body.given;
  }
  if (body.signal !== null) followAbort(copy, body.signal);
  return copy;
}

// A new body that takes over `body` (the Request constructor's "proxy"), leaving it used.
function takeOverBody(body) {
  const proxy = new BodyState();
  body.used = true;
  if (body.stream === null) {
    proxy.bytes = body.bytes;
    proxy.text = body.text;
    proxy.blob = body.blob;
    body.bytes = null;
    body.text = null;
    body.blob = null;
    return proxy;
  }
  proxy.given = body.given;
  proxy.stream = readerStream(streams().getReader.call(body.stream), (chunk) => chunk);
  return proxy;
}

// A stream of what `reader` reads, each chunk through `map`.
function readerStream(reader, map) {
  const { createReadableStream, read, cancelReader } = streams();
  return createReadableStream({
    pull: (controller) => read.call(reader).then((result) => {
      if (result.done) controller.close();
      else controller.enqueue(map(result.value));
    }),
    cancel: (reason) => cancelReader.call(reader, reason),
    highWaterMark: 0,
  });
}

function concat(chunks, size) {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

// "Fully read" a stream through `reader`: its chunks, which must be Uint8Arrays, in one buffer.
async function readAll(reader) {
  const { read } = streams();
  const chunks = [];
  let size = 0;
  for (;;) {
    const result = await read.call(reader);
    if (result.done) return concat(chunks, size);
    const chunk = result.value;
    if (!isUint8Array(chunk)) throw new TypeError("the body's stream gave a chunk that is not a Uint8Array");
    chunks.push(chunk);
    size += chunk.length;
  }
}

// The body's bytes taken now when it has them whole and made no stream (an empty body for none);
// undefined when they must be read.
function wholeBytes(body) {
  if (body === null) return new Uint8Array(0);
  textToBytes(body);
  if (body.stream !== null || body.bytes === null) return undefined;
  const bytes = body.bytes;
  body.bytes = null;
  body.used = true;
  detachBody(body);
  return bytes;
}

// The body's text taken now when it is kept as text (a fetched UTF-8 body no stream was made of);
// undefined otherwise.
function wholeText(body) {
  if (body === null || body.stream !== null || body.text === null) return undefined;
  const text = body.text;
  body.text = null;
  body.used = true;
  detachBody(body);
  return text;
}

// `convert(value, state)` as a promise: settled with what it returns, or rejected with what it throws.
function converted(convert, value, state) {
  try {
    return Promise.resolve(convert(value, state));
  } catch (error) {
    return Promise.reject(error);
  }
}

// The bytes of a body wholeBytes could not take: from the Blob when no stream was made, else read
// from the stream.
function bodyBytes(body) {
  if (body.stream === null) {
    if (body.blob !== null) {
      const blob = body.blob;
      body.blob = null;
      body.used = true;
      return blobs().blobBytes.call(blob);
    }
  }
  return readAll(streams().getReader.call(streamOf(body)));
}

// The bytes as their own ArrayBuffer (a view over part of a larger buffer is copied).
function exactBuffer(bytes) {
  const buffer = typedArrayBuffer.call(bytes);
  if (typedArrayByteOffset.call(bytes) === 0 && typedArrayByteLength.call(bytes) === arrayBufferByteLength.call(buffer)) return buffer;
  return arrayBufferSlice.call(buffer, typedArrayByteOffset.call(bytes), typedArrayByteOffset.call(bytes) + typedArrayByteLength.call(bytes));
}

// "Consume body": a promise rejected, not a throw, for a wrong `this` or an unusable body.
function consumeBody(target, interfaceName, member, convert, convertText = undefined) {
  let state;
  try {
    state = stateOfEither(target, interfaceName, member);
  } catch (error) {
    return Promise.reject(error);
  }
  if (isUnusable(state.body)) {
    return Promise.reject(new TypeError(`${interfaceName}.prototype.${member}: Body is unusable: Body has already been read`));
  }
  // As undici: an aborted fetch's body rejects at once, and again at each try, without being read.
  if (state.body !== null && state.body.aborted) return Promise.reject(state.body.reason);
  // A body kept as text, read by text() or json(): no bytes made, none decoded.
  const text = convertText === undefined ? undefined : wholeText(state.body);
  if (text !== undefined) return converted(convertText, text, state);
  const whole = wholeBytes(state.body);
  if (whole !== undefined) return converted(convert, whole, state);
  return bodyBytes(state.body).then((bytes) => convert(bytes, state));
}

function decodeUTF8(bytes) {
  return utf8.decode(bytes);
}

// What decoding the text's UTF-8 gives: the same text without a leading byte order mark.
function withoutBOM(text) {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function parseJSONText(text) {
  return JSON.parse(withoutBOM(text));
}

function mimeTypeOf(state) {
  const mimeType = extractMimeType(headersState(state.headers).list);
  return mimeType === null ? "" : serializeMimeType(mimeType);
}

// The Body mixin's members, shared by Request and Response.
function defineBodyMembers(target, interfaceName) {
  const members = {
    get body() {
      const body = stateOfEither(this, interfaceName, "body").body;
      return body === null ? null : streamOf(body);
    },
    get bodyUsed() {
      return isBodyUsed(stateOfEither(this, interfaceName, "bodyUsed").body);
    },
    arrayBuffer() {
      return consumeBody(this, interfaceName, "arrayBuffer", exactBuffer);
    },
    blob() {
      return consumeBody(this, interfaceName, "blob", (bytes, state) => new (blobs().Blob)([bytes], { __proto__: null, type: mimeTypeOf(state) }));
    },
    bytes() {
      return consumeBody(this, interfaceName, "bytes", (bytes) => new Uint8Array(exactBuffer(bytes)));
    },
    formData() {
      return consumeBody(this, interfaceName, "formData", (bytes, state) => parseFormData(bytes, state, interfaceName));
    },
    json() {
      return consumeBody(this, interfaceName, "json", (bytes) => JSON.parse(utf8.decode(bytes)), parseJSONText);
    },
    text() {
      return consumeBody(this, interfaceName, "text", decodeUTF8, withoutBOM);
    },
  };
  for (const name of Object.keys(members)) {
    const descriptor = Object.getOwnPropertyDescriptor(members, name);
    descriptor.enumerable = true;
    Object.defineProperty(target, name, descriptor);
  }
}

// ---- formData(): multipart/form-data and application/x-www-form-urlencoded --------------------

function parseFormData(bytes, state, interfaceName) {
  const what = `${interfaceName}.prototype.formData`;
  const mimeType = extractMimeType(headersState(state.headers).list);
  const kind = mimeType === null ? "" : essence(mimeType);
  const { FormData, formDataAppend } = blobs();
  const formData = new FormData();
  if (kind === "multipart/form-data") {
    const boundary = mimeType.parameters.get("boundary");
    const entries = boundary === undefined ? null : parseMultipart(bytes, encoder.encode(boundary));
    if (entries === null) throw new TypeError(`${what}: the body is not valid multipart/form-data`);
    for (const [name, value] of entries) formDataAppend.call(formData, name, value);
    return formData;
  }
  if (kind === "application/x-www-form-urlencoded") {
    // The "&" keeps a leading "?" a part of the first name, as the urlencoded parser has it.
    for (const [name, value] of new URLSearchParams(`&${utf8.decode(bytes)}`)) formDataAppend.call(formData, name, value);
    return formData;
  }
  throw new TypeError(`${what}: the Content-Type is neither multipart/form-data nor application/x-www-form-urlencoded`);
}

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const QUOTE = 0x22;

function startsWithAt(bytes, position, prefix) {
  if (position + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    if (bytes[position + i] !== prefix[i]) return false;
  }
  return true;
}

function indexOfBytes(bytes, needle, from) {
  for (let i = bytes.indexOf(needle[0], from); i !== -1; i = bytes.indexOf(needle[0], i + 1)) {
    if (startsWithAt(bytes, i, needle)) return i;
  }
  return -1;
}

function latin1(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
  return text;
}

const FORM_DATA_NAME = encoder.encode("form-data; name=");
const FILENAME = encoder.encode("; filename=");

// "Parse a multipart/form-data name" at `position` (at a '"'): [name, next position] or null.
function parseMultipartName(bytes, position) {
  if (bytes[position] !== QUOTE) return null;
  position++;
  const start = position;
  while (position < bytes.length && bytes[position] !== LF && bytes[position] !== CR && bytes[position] !== QUOTE) position++;
  if (bytes[position] !== QUOTE) return null;
  const name = latin1(bytes.subarray(start, position)).replace(/%0A/g, "\n").replace(/%0D/g, "\r").replace(/%22/g, '"');
  const raw = new Uint8Array(name.length);
  for (let i = 0; i < name.length; i++) raw[i] = name.charCodeAt(i);
  return [utf8.decode(raw), position + 1];
}

// "Parse multipart/form-data headers" at `position`: { name, filename, contentType, position }
// (position at the CRLF that ends them), or null.
function parseMultipartHeaders(bytes, position) {
  let name = null;
  let filename = null;
  let contentType = null;
  for (;;) {
    if (bytes[position] === CR && bytes[position + 1] === LF) {
      return name === null ? null : { name, filename, contentType, position };
    }
    let end = position;
    while (end < bytes.length && bytes[end] !== LF && bytes[end] !== CR && bytes[end] !== 0x3a) end++;
    const headerName = latin1(bytes.subarray(position, end)).replace(/^[\t ]+|[\t ]+$/g, "");
    if (!TOKEN.test(headerName) || bytes[end] !== 0x3a) return null;
    position = end + 1;
    while (bytes[position] === 0x09 || bytes[position] === 0x20) position++;
    switch (headerName.toLowerCase()) {
      case "content-disposition": {
        name = null;
        filename = null;
        if (!startsWithAt(bytes, position, FORM_DATA_NAME)) return null;
        const parsedName = parseMultipartName(bytes, position + FORM_DATA_NAME.length);
        if (parsedName === null) return null;
        [name, position] = parsedName;
        if (startsWithAt(bytes, position, FILENAME)) {
          const parsedFilename = parseMultipartName(bytes, position + FILENAME.length);
          if (parsedFilename === null) return null;
          [filename, position] = parsedFilename;
        }
        break;
      }
      case "content-type": {
        let valueEnd = position;
        while (valueEnd < bytes.length && bytes[valueEnd] !== LF && bytes[valueEnd] !== CR) valueEnd++;
        contentType = latin1(bytes.subarray(position, valueEnd)).replace(/[\t ]+$/, "");
        position = valueEnd;
        break;
      }
      default:
        while (position < bytes.length && bytes[position] !== LF && bytes[position] !== CR) position++;
    }
    if (bytes[position] !== CR || bytes[position + 1] !== LF) return null;
    position += 2;
  }
}

// The Fetch Standard's multipart/form-data parser: [name, value] entries, or null on failure.
function parseMultipart(bytes, boundary) {
  const { File } = blobs();
  const delimiter = new Uint8Array(boundary.length + 2);
  delimiter.set([DASH, DASH]);
  delimiter.set(boundary, 2);
  const bodyEnd = new Uint8Array(delimiter.length + 2);
  bodyEnd.set([CR, LF]);
  bodyEnd.set(delimiter, 2);
  const entries = [];
  let position = 0;
  for (;;) {
    if (!startsWithAt(bytes, position, delimiter)) return null;
    position += delimiter.length;
    if (position + 4 === bytes.length && startsWithAt(bytes, position, [DASH, DASH, CR, LF])) return entries;
    if (bytes[position] !== CR || bytes[position + 1] !== LF) return null;
    const headers = parseMultipartHeaders(bytes, position + 2);
    if (headers === null) return null;
    const start = headers.position + 2;
    const end = indexOfBytes(bytes, bodyEnd, start);
    if (end === -1) return null;
    const body = bytes.subarray(start, end);
    position = end + 2;
    if (headers.filename !== null) {
      let type = headers.contentType ?? "text/plain";
      if (!/^[\0-\x7f]*$/.test(type)) type = "";
      entries.push([headers.name, new File([body], headers.filename, { __proto__: null, type })]);
    } else {
      entries.push([headers.name, utf8.decode(body)]);
    }
  }
}

// ---- Request -----------------------------------------------------------------------------------

const REFERRER_POLICIES = ["", "no-referrer", "no-referrer-when-downgrade", "same-origin", "origin", "strict-origin",
  "origin-when-cross-origin", "strict-origin-when-cross-origin", "unsafe-url"];
const MODES = ["navigate", "same-origin", "no-cors", "cors"];
const CREDENTIALS = ["omit", "same-origin", "include"];
const CACHE_MODES = ["default", "no-store", "reload", "no-cache", "force-cache", "only-if-cached"];
const REDIRECTS = ["follow", "error", "manual"];
const PRIORITIES = ["high", "low", "auto"];
const NORMALIZED_METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"];
const FORBIDDEN_METHODS = ["CONNECT", "TRACE", "TRACK"];
const NULL_BODY_STATUSES = [101, 103, 204, 205, 304];
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

// The API base URL: a host has none, unless the program made itself a `location` global.
function baseURL() {
  const location = globalThis.location;
  return location === undefined || location === null ? undefined : `${location.href}`;
}

function parseAgainstBase(input) {
  const base = baseURL();
  return base === undefined ? parseURL(input) : parseURL(input, base);
}

// RequestInit's members, read and converted in Web IDL's order (lexicographic); null when none
// is present ("init is empty").
function convertRequestInit(init, what) {
  const dict = dictionary(init, what);
  if (dict === undefined) return null;
  const options = {};
  let present = false;
  const read = (name, convert) => {
    const value = dict[name];
    if (value === undefined) return;
    options[name] = convert(value);
    present = true;
  };
  read("body", (value) => (value === null ? null : convertBodyInit(value)));
  read("cache", (value) => enumValue(value, CACHE_MODES, "RequestCache", what));
  read("credentials", (value) => enumValue(value, CREDENTIALS, "RequestCredentials", what));
  read("duplex", (value) => enumValue(value, ["half"], "RequestDuplex", what));
  read("headers", (value) => convertHeadersInit(value, what));
  read("integrity", (value) => `${value}`);
  read("keepalive", (value) => !!value);
  read("method", (value) => byteString(value, what));
  read("mode", (value) => enumValue(value, MODES, "RequestMode", what));
  read("priority", (value) => enumValue(value, PRIORITIES, "RequestPriority", what));
  read("redirect", (value) => enumValue(value, REDIRECTS, "RequestRedirect", what));
  read("referrer", (value) => usvString(value));
  read("referrerPolicy", (value) => enumValue(value, REFERRER_POLICIES, "ReferrerPolicy", what));
  read("signal", (value) => {
    if (value !== null && !aborting().isAbortSignal(value)) throw new TypeError(`${what}: member signal is not of type AbortSignal.`);
    return value;
  });
  read("window", (value) => value);
  return present ? options : null;
}

let requestState; // (value) => a Request's state, or undefined for anything else

function requestOf(value, member) {
  const state = requestState(value);
  if (state === undefined) throw new TypeError(`Request.prototype.${member}: 'this' is not a Request`);
  return state;
}

// The Request's signal, made at its first use: until then, the signal it follows stands for it.
function requestSignal(state) {
  if (state.signal === null && state.followed !== null) state.signal = aborting().any([state.followed]);
  return state.signal;
}

function signalToFollow(state) {
  return state.signal ?? state.followed;
}

// A request's state for a URL alone (the constructor's string input, before RequestInit is read).
function urlRequestState(url, mode, what) {
  const parsed = parseAgainstBase(url);
  if (parsed === null) throw new TypeError(`${what}: Failed to parse URL from ${url}`);
  if (urlUsername.call(parsed) !== "" || urlPassword.call(parsed) !== "") {
    throw new TypeError(`${what}: Request cannot be constructed from a URL that includes credentials: ${url}`);
  }
  return {
    method: "GET", url: urlHref.call(parsed), headers: null, body: null, signal: null, followed: null,
    referrer: "client", referrerPolicy: "", mode, credentials: "same-origin", cache: "default",
    redirect: "follow", integrity: "", keepalive: false, priority: "auto",
  };
}

// The headers of a request made from a URL alone inside fetch(), which no program can reach: one
// empty list for all of them.
let noRequestHeaders = null;

class Request {
  #state;

  constructor(input, init = undefined) {
    if (input === INTERNAL && requestHandoff !== null) {
      this.#state = requestHandoff;
      requestHandoff = null;
      return;
    }
    const what = "Failed to construct 'Request'";
    requireArguments(arguments.length, 1, what);
    const inputState = requestState(input);
    const url = inputState === undefined ? usvString(input) : undefined;
    const options = convertRequestInit(init, what);
    let state;
    let list;
    let fallbackMode = null;
    if (inputState === undefined) {
      state = urlRequestState(url, "no-cors", what);
      list = newHeaderList();
      fallbackMode = "cors";
    } else {
      state = { ...inputState, headers: null, body: null, signal: null, followed: signalToFollow(inputState) };
      list = copyHeaderList(headersState(inputState.headers).list);
    }
    if (options !== null) {
      if (options.window !== undefined && options.window !== null) throw new TypeError(`${what}: 'window' can only be null.`);
      if (state.mode === "navigate") state.mode = "same-origin";
      state.referrer = "client";
      state.referrerPolicy = "";
      if (options.referrer !== undefined) {
        if (options.referrer === "") {
          state.referrer = "no-referrer";
        } else {
          const parsed = parseAgainstBase(options.referrer);
          if (parsed === null) throw new TypeError(`${what}: Referrer "${options.referrer}" is not a valid URL.`);
          // There is no origin to compare it with: any URL is kept, as in node.
          const href = urlHref.call(parsed);
          state.referrer = href === "about:client" ? "client" : href;
        }
      }
      if (options.referrerPolicy !== undefined) state.referrerPolicy = options.referrerPolicy;
    }
    const mode = options?.mode ?? fallbackMode;
    if (mode === "navigate") throw new TypeError(`${what}: Cannot construct a Request with a RequestInit whose mode member is set as 'navigate'.`);
    if (mode !== null) state.mode = mode;
    if (options !== null) {
      if (options.credentials !== undefined) state.credentials = options.credentials;
      if (options.cache !== undefined) state.cache = options.cache;
    }
    if (state.cache === "only-if-cached" && state.mode !== "same-origin") {
      throw new TypeError(`${what}: 'only-if-cached' can be set only with 'same-origin' mode`);
    }
    if (options !== null) {
      if (options.redirect !== undefined) state.redirect = options.redirect;
      if (options.integrity !== undefined) state.integrity = options.integrity;
      if (options.keepalive !== undefined) state.keepalive = options.keepalive;
      if (options.method !== undefined) state.method = normalizeMethod(options.method, what);
      if (options.signal !== undefined) state.followed = options.signal;
      if (options.priority !== undefined) state.priority = options.priority;
    }
    const headers = { list, guard: "request" };
    if (state.mode === "no-cors") {
      if (!["GET", "HEAD", "POST"].includes(state.method)) throw new TypeError(`${what}: '${state.method}' is unsupported in no-cors mode.`);
      headers.guard = "request-no-cors";
    }
    if (options !== null) {
      const pairs = options.headers ?? rawPairs(list);
      headers.list = newHeaderList();
      fillHeaders(headers, pairs, what);
    }
    const inputBody = inputState === undefined ? null : inputState.body;
    const initBody = options?.body ?? null;
    if ((initBody !== null || inputBody !== null) && (state.method === "GET" || state.method === "HEAD")) {
      throw new TypeError(`${what}: Request with GET/HEAD method cannot have body.`);
    }
    let body = null;
    if (initBody !== null) {
      const extracted = extractBody(initBody, state.keepalive, what);
      body = extracted.body;
      if (extracted.type !== null && !headers.list.map.has("content-type")) appendHeader(headers, "Content-Type", extracted.type, what);
    }
    const inputOrInitBody = body ?? inputBody;
    if (inputOrInitBody !== null && inputOrInitBody.given) {
      if (body !== null && options.duplex === undefined) throw new TypeError(`${what}: RequestInit: duplex option is required when sending a body.`);
      if (state.mode !== "same-origin" && state.mode !== "cors") throw new TypeError(`${what}: a ReadableStream body needs mode 'same-origin' or 'cors'.`);
    }
    if (body === null && inputBody !== null) {
      if (isUnusable(inputBody)) throw new TypeError(`${what}: Cannot construct a Request with a Request object that has already been used.`);
      body = takeOverBody(inputBody);
    }
    state.body = body;
    state.headers = makeHeaders(headers.list, headers.guard);
    this.#state = state;
  }

  static {
    requestState = (value) => (isObject(value) && #state in value ? value.#state : undefined);
  }

  get method() { return requestOf(this, "method").method; }
  get url() { return requestOf(this, "url").url; }
  get headers() { return requestOf(this, "headers").headers; }
  get destination() { requestOf(this, "destination"); return ""; }

  get referrer() {
    const referrer = requestOf(this, "referrer").referrer;
    if (referrer === "no-referrer") return "";
    return referrer === "client" ? "about:client" : referrer;
  }

  get referrerPolicy() { return requestOf(this, "referrerPolicy").referrerPolicy; }
  get mode() { return requestOf(this, "mode").mode; }
  get credentials() { return requestOf(this, "credentials").credentials; }
  get cache() { return requestOf(this, "cache").cache; }
  get redirect() { return requestOf(this, "redirect").redirect; }
  get integrity() { return requestOf(this, "integrity").integrity; }
  get keepalive() { return requestOf(this, "keepalive").keepalive; }
  get isReloadNavigation() { requestOf(this, "isReloadNavigation"); return false; }
  get isHistoryNavigation() { requestOf(this, "isHistoryNavigation"); return false; }

  get signal() {
    const state = requestOf(this, "signal");
    // A request that follows no signal gets one that never aborts.
    if (state.signal === null && state.followed === null) state.signal = aborting().any([]);
    return requestSignal(state);
  }

  get duplex() { requestOf(this, "duplex"); return "half"; }

  clone() {
    const state = requestOf(this, "clone");
    if (isUnusable(state.body)) throw new TypeError("Request.prototype.clone: Body has already been consumed.");
    return makeRequest({
      ...state,
      headers: makeHeaders(copyHeaderList(headersState(state.headers).list), headersState(state.headers).guard),
      body: state.body === null ? null : cloneBody(state.body),
      signal: null,
      followed: signalToFollow(state),
    });
  }
}
enumerable(Request.prototype, ["method", "url", "headers", "destination", "referrer", "referrerPolicy", "mode", "credentials",
  "cache", "redirect", "integrity", "keepalive", "isReloadNavigation", "isHistoryNavigation", "signal", "duplex", "clone"]);
defineBodyMembers(Request.prototype, "Request");
toStringTag(Request.prototype, "Request");

let requestHandoff = null;

function makeRequest(state) {
  requestHandoff = state;
  return new Request(INTERNAL);
}

function normalizeMethod(method, what) {
  if (!TOKEN.test(method)) throw new TypeError(`${what}: '${method}' is not a valid HTTP method.`);
  const upper = method.toUpperCase();
  if (FORBIDDEN_METHODS.includes(upper)) throw new TypeError(`${what}: '${method}' HTTP method is unsupported.`);
  return NORMALIZED_METHODS.includes(upper) ? upper : method;
}

// ---- Response ----------------------------------------------------------------------------------

let responseState; // (value) => a Response's state, or undefined for anything else
let responseHandoff = null;

function responseOf(value, member) {
  const state = responseState(value);
  if (state === undefined) throw new TypeError(`Response.prototype.${member}: 'this' is not a Response`);
  return state;
}

function stateOfEither(value, interfaceName, member) {
  return interfaceName === "Request" ? requestOf(value, member) : responseOf(value, member);
}

function makeResponse(state) {
  responseHandoff = state;
  return new Response(INTERNAL);
}

function newResponseState(guard) {
  return { type: "default", url: null, redirected: false, status: 200, statusText: "", headers: makeHeaders(newHeaderList(), guard), body: null };
}

// ResponseInit's members, in Web IDL's order.
function convertResponseInit(init, what) {
  const dict = dictionary(init, what);
  const options = { headers: undefined, status: 200, statusText: "" };
  if (dict === undefined) return options;
  if (dict.headers !== undefined) options.headers = convertHeadersInit(dict.headers, what);
  if (dict.status !== undefined) options.status = enforceUnsignedShort(dict.status, `${what}: member status`);
  if (dict.statusText !== undefined) options.statusText = byteString(dict.statusText, what);
  return options;
}

// "Initialize a response".
function initializeResponse(state, options, extracted, what) {
  if (options.status < 200 || options.status > 599) throw new RangeError(`${what}: init["status"] must be in the range of 200 to 599, inclusive.`);
  if (!REASON_PHRASE.test(options.statusText)) throw new TypeError(`${what}: Invalid statusText`);
  state.status = options.status;
  state.statusText = options.statusText;
  const headers = headersState(state.headers);
  if (options.headers !== undefined) fillHeaders(headers, options.headers, what);
  if (extracted === null) return;
  if (NULL_BODY_STATUSES.includes(state.status)) throw new TypeError(`${what}: Response with null body status cannot have body`);
  state.body = extracted.body;
  if (extracted.type !== null && !headers.list.map.has("content-type")) listAppend(headers.list, "Content-Type", extracted.type);
}

class Response {
  #state;

  constructor(body = null, init = undefined) {
    if (body === INTERNAL && responseHandoff !== null) {
      this.#state = responseHandoff;
      responseHandoff = null;
      return;
    }
    const what = "Failed to construct 'Response'";
    const bodyInit = body === null ? null : convertBodyInit(body);
    const options = convertResponseInit(init, what);
    const state = newResponseState("response");
    initializeResponse(state, options, bodyInit === null ? null : extractBody(bodyInit, false, what), what);
    this.#state = state;
  }

  static {
    responseState = (value) => (isObject(value) && #state in value ? value.#state : undefined);
  }

  static error() {
    const state = newResponseState("immutable");
    state.type = "error";
    state.status = 0;
    return makeResponse(state);
  }

  static redirect(url, status = 302) {
    const what = "Failed to execute 'redirect' on 'Response'";
    requireArguments(arguments.length, 1, what);
    const text = usvString(url);
    const code = unsignedShort(status);
    const parsed = parseAgainstBase(text);
    if (parsed === null) throw new TypeError(`${what}: Failed to parse URL from ${text}`);
    if (!REDIRECT_STATUSES.includes(code)) throw new RangeError(`${what}: Invalid status code ${code}`);
    const list = newHeaderList();
    listAppend(list, "Location", urlHref.call(parsed));
    const state = newResponseState("immutable");
    state.status = code;
    state.headers = makeHeaders(list, "immutable");
    return makeResponse(state);
  }

  static json(data, init = undefined) {
    const what = "Failed to execute 'json' on 'Response'";
    requireArguments(arguments.length, 1, what);
    const options = convertResponseInit(init, what);
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError(`${what}: The data is not JSON serializable`);
    const body = new BodyState();
    body.bytes = encoder.encode(text);
    const state = newResponseState("response");
    initializeResponse(state, options, { body, type: "application/json" }, what);
    return makeResponse(state);
  }

  get type() { return responseOf(this, "type").type; }

  get url() {
    const url = responseOf(this, "url").url;
    if (url === null) return "";
    const hash = url.indexOf("#");
    return hash === -1 ? url : url.slice(0, hash);
  }

  get redirected() { return responseOf(this, "redirected").redirected; }
  get status() { return responseOf(this, "status").status; }

  get ok() {
    const status = responseOf(this, "ok").status;
    return status >= 200 && status <= 299;
  }

  get statusText() { return responseOf(this, "statusText").statusText; }
  get headers() { return responseOf(this, "headers").headers; }

  clone() {
    const state = responseOf(this, "clone");
    if (isUnusable(state.body)) throw new TypeError("Response.prototype.clone: Body has already been consumed.");
    const headers = headersState(state.headers);
    return makeResponse({
      ...state,
      headers: makeHeaders(copyHeaderList(headers.list), headers.guard),
      body: state.body === null ? null : cloneBody(state.body),
    });
  }
}
enumerable(Response.prototype, ["type", "url", "redirected", "status", "ok", "statusText", "headers", "clone"]);
enumerable(Response, ["error", "redirect", "json"]);
defineBodyMembers(Response.prototype, "Response");
toStringTag(Response.prototype, "Response");

// ---- fetch() -----------------------------------------------------------------------------------

// A data: URL answers here (the standard's data: URL processor): { mimeType, body } or null.
function processDataURL(url) {
  const hash = url.indexOf("#");
  const input = (hash === -1 ? url : url.slice(0, hash)).slice("data:".length);
  const comma = input.indexOf(",");
  if (comma === -1) return null;
  let mimeType = input.slice(0, comma).replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "");
  let body = percentDecode(encoder.encode(input.slice(comma + 1)));
  const base64 = /;[\x20]*base64$/i.exec(mimeType);
  if (base64 !== null) {
    let binary;
    try {
      binary = internals.get("atob")(latin1(body));
    } catch {
      return null;
    }
    body = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) body[i] = binary.charCodeAt(i);
    mimeType = mimeType.slice(0, base64.index);
  }
  if (mimeType.startsWith(";")) mimeType = `text/plain${mimeType}`;
  const parsed = parseMimeType(mimeType);
  return { mimeType: parsed === null ? "text/plain;charset=US-ASCII" : serializeMimeType(parsed), body };
}

function isHexDigit(byte) {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

function percentDecode(bytes) {
  const output = new Uint8Array(bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x25 && isHexDigit(bytes[i + 1]) && isHexDigit(bytes[i + 2])) {
      output[length++] = parseInt(String.fromCharCode(bytes[i + 1], bytes[i + 2]), 16);
      i += 2;
    } else {
      output[length++] = bytes[i];
    }
  }
  return output.slice(0, length);
}

function dataResponse(url, method) {
  const data = processDataURL(url);
  if (data === null) throw new TypeError("fetch failed", { cause: new TypeError(`invalid data: URL ${url}`) });
  const list = newHeaderList();
  listAppend(list, "content-type", data.mimeType);
  let body = null;
  if (method !== "HEAD") {
    body = new BodyState();
    body.bytes = data.body;
  }
  return { type: "basic", url, redirected: false, status: 200, statusText: "OK", headers: makeHeaders(list, "immutable"), body };
}

// What the host adds to RequestInit, for the network service: `sign` (a signer of app.json's) and
// `retry` ({ attempts, backoffMs, maxBackoffMs }), checked natively.
function hostOptions(init) {
  if (!isObject(init)) return null;
  const { sign, retry } = init;
  if (sign === undefined && retry === undefined) return null;
  return { sign: sign === undefined ? undefined : `${sign}`, retry };
}

// The request's bytes for network.fetch: a stream is read to its end first, through a reader
// the fetch's abort can cancel (`pending.reader`).
function requestBytes(body, pending) {
  textToBytes(body);
  if (body.stream === null && body.bytes !== null) return body.bytes;
  if (body.stream === null && body.blob !== null) return blobs().blobBytes.call(body.blob);
  pending.reader = streams().getReader.call(streamOf(body));
  return readAll(pending.reader);
}

// Headers that would change how the message is framed on the connection, which the transport
// owns: refused as undici's transport refuses them, since a GET that claims a body hangs the server
// waiting for it. Null when there is none.
const TRANSPORT_HEADERS = ["transfer-encoding", "keep-alive", "upgrade", "expect"];
function framingProblem(list, bytes) {
  if (list.map.size === 0) return null;
  for (const name of TRANSPORT_HEADERS) {
    if (list.map.has(name)) return `the ${name} header is the transport's to send`;
  }
  const connection = listGet(list, "connection");
  if (connection !== null && !["close", "keep-alive"].includes(connection.toLowerCase())) return `invalid connection header ${connection}`;
  const length = listGet(list, "content-length");
  if (length !== null && length !== `${bytes === null ? 0 : bytes.length}`) {
    return `the content-length header says ${length}, the body has ${bytes === null ? 0 : bytes.length} bytes`;
  }
  return null;
}

function networkParams(state, bytes, extras) {
  const list = headersState(state.headers).list;
  // Params have no prototype: the bridge would send what a program put on Object.prototype, and a
  // header named __proto__ is a header like any other.
  const headers = { __proto__: null };
  for (const entry of list.map.values()) headers[entry.name] = entry.values.length === 1 ? entry.values[0] : entry.values.join(", ");
  // The headers the standard's fetch adds when the request has none of its own (Accept,
  // Accept-Language, User-Agent) are network.fetch's to add: they are the same for every fetch.
  const params = { __proto__: null, url: state.url, method: state.method, headers, bodyAsText: true };
  if (bytes !== null) params.bytes = bytes;
  if (state.redirect !== "follow") params.redirect = state.redirect;
  if (state.cache !== "default") params.cache = state.cache;
  if (state.credentials !== "same-origin") params.credentials = state.credentials;
  if (extras !== null && extras.sign !== undefined) params.sign = extras.sign;
  if (extras !== null && extras.retry !== undefined) params.retry = extras.retry;
  return params;
}

// network.fetch's answer as a Response's state: "basic", its headers immutable, its body whole or
// still arriving (read through network.read once something reads it). The headers are made when
// first read (many responses are read for their body alone): until then the prototype's getter
// stands for them, and the first read makes them an own data property like any state's. A literal,
// not a class: its members are defined, so what a program put on Object.prototype has no say.
const fetchedResponsePrototype = {
  get headers() {
    const list = newHeaderList();
    // A field value's surrounding whitespace is not part of it (curl keeps it).
    for (const [name, value] of this.pairs) listAppend(list, name, normalizeHeaderValue(value));
    const headers = makeHeaders(list, "immutable");
    Object.defineProperty(this, "headers", { __proto__: null, value: headers, writable: true, enumerable: true, configurable: true });
    this.pairs = null;
    return headers;
  },
  set headers(value) {
    Object.defineProperty(this, "headers", { __proto__: null, value, writable: true, enumerable: true, configurable: true });
  },
};

function fetchedResponseState(answer) {
  let body = null;
  if (answer.stream !== undefined) {
    body = new BodyState();
    body.streamId = answer.stream;
    unreadBodies.register(body, answer.stream, body);
  } else if (answer.text !== undefined) {
    body = new BodyState();
    body.text = answer.text;
  } else if (answer.body !== null && answer.body !== undefined) {
    body = new BodyState();
    body.bytes = answer.body;
  }
  return {
    __proto__: fetchedResponsePrototype,
    type: "basic", url: answer.url, redirected: answer.redirected, status: answer.status, statusText: answer.statusText,
    pairs: answer.headers, body,
  };
}

function answeredResponse(answer) {
  return makeResponse(fetchedResponseState(answer));
}

function fetchFailed(error) {
  throw new TypeError("fetch failed", { cause: error });
}

// The fetch of a request with no body that nothing can abort, to a URL that is not data: (most
// fetches): fetchHead's steps without its awaits, one call whose answer becomes the Response.
function fetchWithoutBody(state, extras) {
  const problem = framingProblem(headersState(state.headers).list, null);
  if (problem !== null) return Promise.reject(new TypeError("fetch failed", { cause: new TypeError(problem) }));
  return hybridCall("network", "fetch", networkParams(state, null, extras)).then(answeredResponse, fetchFailed);
}

// "Fetch" the request, up to the response's head. Null when the signal aborted on the way (the
// fetch's promise has been rejected with its reason already).
async function fetchHead(state, extras, signal, pending) {
  const aborted = () => signal !== null && aborting().aborted.call(signal);
  if (state.url.startsWith("data:")) return dataResponse(state.url, state.method);
  const bytes = state.body === null ? null : await requestBytes(state.body, pending);
  if (aborted()) return null;
  const problem = framingProblem(headersState(state.headers).list, bytes);
  if (problem !== null) throw new TypeError("fetch failed", { cause: new TypeError(problem) });
  let answer;
  try {
    answer = await hybridCall("network", "fetch", networkParams(state, bytes, extras), signal === null ? undefined : { __proto__: null, signal });
  } catch (error) {
    if (aborted()) return null;
    throw new TypeError("fetch failed", { cause: error });
  }
  const response = fetchedResponseState(answer);
  if (aborted()) {
    if (response.body !== null) cancelNetworkBody(response.body);
    return null;
  }
  if (response.body !== null && signal !== null) followAbort(response.body, signal);
  return response;
}

function fetch(input, init = undefined) {
  let state;
  let extras;
  try {
    requireArguments(arguments.length, 1, "Failed to execute 'fetch'");
    if (typeof input === "string" && init === undefined) {
      // `fetch(url)`: the state `new Request(url)` would hold (mode "cors", no headers, no body),
      // without the Request and its Headers, which nothing here would ever read.
      state = urlRequestState(usvString(input), "cors", "Failed to construct 'Request'");
      if (noRequestHeaders === null) noRequestHeaders = makeHeaders(newHeaderList(), "request");
      state.headers = noRequestHeaders;
      if (!state.url.startsWith("data:")) return fetchWithoutBody(state, null);
      return fetchHead(state, null, null, { reader: null }).then(makeResponse);
    }
    state = requestState(new Request(input, init));
    extras = hostOptions(init);
  } catch (error) {
    return Promise.reject(error);
  }
  const signal = state.followed === null ? null : requestSignal(state);
  // Without a signal nothing can abort the fetch: its response is fetchHead's.
  if (signal === null) {
    if (state.body === null && !state.url.startsWith("data:")) return fetchWithoutBody(state, extras);
    return fetchHead(state, extras, null, { reader: null }).then(makeResponse);
  }
  let resolve;
  let reject;
  const promise = new Promise((a, b) => {
    resolve = a;
    reject = b;
  });
  // "Abort the fetch() call": reject now, and cancel the request's body if it is being read.
  const pending = { reader: null };
  const abort = () => {
    const reason = aborting().reason.call(signal);
    reject(reason);
    if (pending.reader !== null) streams().cancelReader.call(pending.reader, reason).catch(noop);
    else if (state.body !== null && state.body.stream !== null) streams().cancel.call(state.body.stream, reason).catch(noop);
  };
  if (signal !== null) {
    if (aborting().aborted.call(signal)) {
      abort();
      return promise;
    }
    aborting().addAbortAlgorithm(signal, abort);
  }
  fetchHead(state, extras, signal, pending).then((response) => {
    if (signal !== null) aborting().removeAbortAlgorithm(signal, abort);
    if (response !== null) resolve(makeResponse(response));
  }, (error) => {
    if (signal !== null) aborting().removeAbortAlgorithm(signal, abort);
    reject(error);
  });
  return promise;
}

// ---- What this group gives ---------------------------------------------------------------------

define("Headers", Headers);
define("Request", Request);
define("Response", Response);
define("fetch", fetch);
unserializable(headersOf, requestOf, responseOf);
