"use strict";
// WebSocket, as the WHATWG WebSockets Standard defines it, and CloseEvent, over the network
// service's socketOpen, socketSend, socketReceive and socketClose actions (SwiftNIO's WebSocket
// client underneath: the host's libcurl has none).
//
// The native side queues what arrives; one socketReceive at a time takes all of it, so an open
// socket keeps the app alive through that pending call, as timers do, and lets it end once
// closed. bufferedAmount counts the bytes handed to send() that the socket has not written yet:
// each socketSend answers once its frame is written. Sends go out in the order send() was called;
// a Blob is read first, and what was sent after it waits for it. The text messages of one turn
// cross the bridge as one JSON text (texts), since every object or string that crosses one by one
// costs engine calls of its own (what arrives, a batch of many values, the engine makes from JSON
// text itself).

const { requireArguments, dictionary, enumerable, toStringTag, constants } = internals.get("webidl");
const Event = internals.get("Event");
const EventTarget = internals.get("EventTarget");
const defineEventHandlers = internals.get("defineEventHandlers");
const MessageEvent = internals.get("MessageEvent");
const withTimeStamp = internals.get("withTimeStamp");
const now = internals.now;
const Blob = internals.get("Blob");
const isBlob = internals.get("isBlob");
const URL = internals.get("URL");
const DOMException = internals.get("DOMException");
const hybridCall = globalThis.Hybrid.call;

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

// Brand checks and a BufferSource's parts through the built-ins' own getters (webidl.js).
const { arrayBufferByteLength, hasBrand } = internals.get("webidl").buffers;

// The UTF-8 length of a string as a USVString (a lone surrogate is U+FFFD, three bytes), counted
// here: TextEncoder would cross into native code and allocate the bytes for every send().
function utf8Length(text) {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      length += 1;
    } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A pair: four bytes for two units.
      length += 2;
      i++;
    } else {
      length += 2;
    }
  }
  return length;
}

function isArrayBuffer(value) {
  return hasBrand(arrayBufferByteLength, value);
}

// ---- CloseEvent --------------------------------------------------------------------------------

class CloseEvent extends Event {
  #init;

  constructor(type, eventInitDict = undefined) {
    requireArguments(arguments.length, 1, "Failed to construct 'CloseEvent'");
    super(type, eventInitDict);
    const init = dictionary(eventInitDict, "Failed to construct 'CloseEvent'") ?? {};
    this.#init = {
      wasClean: !!init.wasClean,
      code: init.code === undefined ? 0 : Number(init.code) & 0xffff,
      reason: init.reason === undefined ? "" : `${init.reason}`,
    };
  }

  static #of(event, member) {
    if (event === null || typeof event !== "object" || !(#init in event)) {
      throw new TypeError(`CloseEvent.prototype.${member}: 'this' is not a CloseEvent`);
    }
    return event.#init;
  }

  get wasClean() { return CloseEvent.#of(this, "wasClean").wasClean; }
  get code() { return CloseEvent.#of(this, "code").code; }
  get reason() { return CloseEvent.#of(this, "reason").reason; }
}
enumerable(CloseEvent.prototype, ["wasClean", "code", "reason"]);
toStringTag(CloseEvent.prototype, "CloseEvent");

// ---- WebSocket ---------------------------------------------------------------------------------

// The URL a WebSocket may open: ws: or wss: (http: and https: become them), no fragment; relative
// to the program's location when it has one.
function socketURL(url) {
  let parsed;
  try {
    const base = globalThis.location?.href;
    parsed = base === undefined ? new URL(`${url}`) : new URL(`${url}`, base);
  } catch {
    throw new DOMException(`Failed to construct 'WebSocket': The URL '${url}' is invalid.`, "SyntaxError");
  }
  if (parsed.protocol === "http:") parsed.protocol = "ws:";
  else if (parsed.protocol === "https:") parsed.protocol = "wss:";
  if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:") {
    throw new DOMException(`Failed to construct 'WebSocket': The URL's scheme must be either 'http', 'https', 'ws', or 'wss'. '${parsed.protocol}' is not allowed.`, "SyntaxError");
  }
  if (parsed.hash !== "" || parsed.href.endsWith("#")) {
    throw new DOMException(`Failed to construct 'WebSocket': The URL contains a fragment identifier ('${parsed.hash}'). Fragment identifiers are not allowed in WebSocket URLs.`, "SyntaxError");
  }
  return parsed;
}

// A subprotocol is an HTTP token.
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function subprotocols(protocols) {
  const list = typeof protocols === "string" ? [protocols]
    : protocols !== null && typeof protocols === "object" && typeof protocols[Symbol.iterator] === "function" ? Array.from(protocols, (p) => `${p}`)
    : [`${protocols}`];
  const seen = new Set();
  for (const protocol of list) {
    if (!token.test(protocol) || seen.has(protocol.toLowerCase())) {
      throw new DOMException(`Failed to construct 'WebSocket': The subprotocol '${protocol}' is invalid or repeated.`, "SyntaxError");
    }
    seen.add(protocol.toLowerCase());
  }
  return list;
}

class WebSocket extends EventTarget {
  #url;
  #readyState = CONNECTING;
  #protocol = "";
  #extensions = "";
  #binaryType = "blob";
  #bufferedAmount = 0;
  #socket = null;
  // What a send() after a Blob waits for, so that messages leave in order; null when nothing waits.
  #pendingBlob = null;
  // Messages send() queued this turn, and their bytes; the last socketSend, which close() waits for.
  #lastSend = null;
  #outbox = [];
  #outboxBytes = 0;
  // close() before the socket opened: once it opens, it is ended at once.
  #closeRequested = false;

  constructor(url, protocols = []) {
    requireArguments(arguments.length, 1, "Failed to construct 'WebSocket'");
    super();
    const parsed = socketURL(url);
    const offered = subprotocols(protocols);
    this.#url = parsed.href;
    this.#open(offered, parsed.origin === "null" ? this.#url : parsed.origin);
  }

  get url() { return this.#url; }
  get readyState() { return this.#readyState; }
  get bufferedAmount() { return this.#bufferedAmount; }
  get extensions() { return this.#extensions; }
  get protocol() { return this.#protocol; }
  get binaryType() { return this.#binaryType; }
  set binaryType(value) {
    const type = `${value}`;
    if (type === "blob" || type === "arraybuffer") this.#binaryType = type;
  }

  send(data) {
    requireArguments(arguments.length, 1, "Failed to execute 'send' on 'WebSocket'");
    if (this.#readyState === CONNECTING) {
      throw new DOMException("Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.", "InvalidStateError");
    }
    let message;
    let size;
    if (isBlob(data)) {
      size = data.size;
      message = data.arrayBuffer().then((buffer) => ({ bytes: new Uint8Array(buffer) }));
    } else if (isArrayBuffer(data)) {
      message = { bytes: new Uint8Array(data.slice(0)) };
      size = message.bytes.length;
    } else if (ArrayBuffer.isView(data)) {
      const view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      message = { bytes: view.slice() };
      size = view.length;
    } else {
      const text = `${data}`;
      message = { text };
      size = utf8Length(text);
    }
    // Past CLOSING, the bytes count but go nowhere, as the standard says.
    this.#bufferedAmount += size;
    if (this.#readyState !== OPEN) return;
    if (message instanceof Promise || this.#pendingBlob !== null) {
      this.#flush();
      const after = (this.#pendingBlob ?? Promise.resolve()).then(() => message).then((read) => {
        this.#outbox.push(read);
        this.#outboxBytes += size;
        this.#flush();
      }, () => { this.#bufferedAmount -= size; });
      this.#pendingBlob = after;
      after.then(() => { if (this.#pendingBlob === after) this.#pendingBlob = null; });
      return;
    }
    // The sends of one turn go as one socketSend, flushed once.
    this.#outbox.push(message);
    this.#outboxBytes += size;
    if (this.#outbox.length === 1) queueMicrotask(() => this.#flush());
  }

  // Hands what send() queued to the network in one call; bufferedAmount drops when it is written.
  #flush() {
    if (this.#outbox.length === 0) return;
    const messages = this.#outbox, bytes = this.#outboxBytes;
    this.#outbox = [];
    this.#outboxBytes = 0;
    const sent = () => { this.#bufferedAmount -= bytes; };
    const params = { __proto__: null, socket: this.#socket };
    if (messages.length === 1) Object.assign(params, messages[0]);
    // As USVStrings (a lone surrogate is U+FFFD), which JSON text can carry.
    else if (messages.every((message) => message.text !== undefined)) params.texts = JSON.stringify(messages.map((message) => message.text.toWellFormed()));
    else params.messages = messages;
    this.#lastSend = hybridCall("network", "socketSend", params).then(sent, sent);
  }

  close(code = undefined, reason = undefined) {
    if (code !== undefined) {
      code = Number(code);
      if (!Number.isFinite(code) || (Math.trunc(code) !== 1000 && (Math.trunc(code) < 3000 || Math.trunc(code) > 4999))) {
        throw new DOMException(`Failed to execute 'close' on 'WebSocket': The code must be either 1000, or between 3000 and 4999. ${code} is neither.`, "InvalidAccessError");
      }
      code = Math.trunc(code);
    }
    if (reason !== undefined) {
      reason = `${reason}`;
      if (utf8Length(reason) > 123) {
        throw new DOMException("Failed to execute 'close' on 'WebSocket': The message must not be greater than 123 bytes.", "SyntaxError");
      }
    }
    if (this.#readyState === CLOSING || this.#readyState === CLOSED) return;
    if (this.#readyState === CONNECTING) {
      // Fail the connection: it ends without a handshake once (if) it opens.
      this.#closeRequested = true;
      this.#readyState = CLOSING;
      return;
    }
    this.#readyState = CLOSING;
    const params = { __proto__: null, socket: this.#socket };
    if (code !== undefined) params.code = code;
    if (reason !== undefined) params.reason = reason;
    // What was sent before goes first: this turn's messages, and what waits behind a Blob.
    this.#flush();
    const closing = () => hybridCall("network", "socketClose", params).catch(() => {});
    const before = this.#pendingBlob ?? this.#lastSend;
    if (before !== null) before.then(closing);
    else closing();
  }

  async #open(protocols, origin) {
    let opened;
    try {
      opened = await hybridCall("network", "socketOpen", { __proto__: null, url: this.#url, protocols });
    } catch (error) {
      this.#fail(1006, "", error);
      return;
    }
    this.#socket = opened.socket;
    if (this.#closeRequested) {
      // Failed while connecting: the connection ends at once, then "error" and "close".
      hybridCall("network", "socketClose", { __proto__: null, socket: opened.socket, abort: true }).catch(() => {});
      this.#fail(1006, "");
      return;
    }
    this.#protocol = opened.protocol;
    this.#extensions = opened.extensions;
    this.#readyState = OPEN;
    this.dispatchEvent(new Event("open"));
    this.#receive(origin);
  }

  async #receive(origin) {
    for (;;) {
      let answer;
      try {
        answer = await hybridCall("network", "socketReceive", { __proto__: null, socket: this.#socket });
      } catch (error) {
        this.#fail(1006, "", error);
        return;
      }
      // The messages of one answer arrived together: their events share one reading of the clock.
      const arrived = now();
      for (const event of answer.events) {
        if (event.closed !== undefined) {
          const { code, reason, wasClean } = event.closed;
          if (this.#readyState === CLOSED) return;
          if (!wasClean) {
            this.#fail(code, reason);
          } else {
            this.#readyState = CLOSED;
            this.dispatchEvent(new CloseEvent("close", { wasClean, code, reason }));
          }
          return;
        }
        if (this.#readyState !== OPEN && this.#readyState !== CLOSING) continue;
        let data;
        if (event.text !== undefined) {
          data = event.text;
        } else if (this.#binaryType === "arraybuffer") {
          const bytes = event.bytes;
          data = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
        } else {
          data = new Blob([event.bytes]);
        }
        this.dispatchEvent(withTimeStamp(arrived, MessageEvent, "message", { data, origin }));
      }
    }
  }

  // The connection failed or ended without a closing handshake: "error", then "close".
  #fail(code, reason, cause = undefined) {
    if (this.#readyState === CLOSED) return;
    this.#readyState = CLOSED;
    const error = new Event("error");
    if (cause !== undefined) Object.defineProperty(error, "cause", { value: cause, configurable: true });
    this.dispatchEvent(error);
    this.dispatchEvent(new CloseEvent("close", { wasClean: false, code, reason }));
  }
}
defineEventHandlers(WebSocket.prototype, ["open", "message", "error", "close"]);
constants(WebSocket, [["CONNECTING", CONNECTING], ["OPEN", OPEN], ["CLOSING", CLOSING], ["CLOSED", CLOSED]]);
enumerable(WebSocket.prototype, ["url", "readyState", "bufferedAmount", "onopen", "onerror", "onclose", "extensions", "protocol",
  "close", "onmessage", "binaryType", "send"]);
toStringTag(WebSocket.prototype, "WebSocket");

define("WebSocket", WebSocket);
define("CloseEvent", CloseEvent);
