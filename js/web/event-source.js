"use strict";
// EventSource (server-sent events) as the HTML Standard defines it (§9.2), over the host's fetch,
// and MessageEvent, the events it fires.
//
// A connection is a fetch with `Accept: text/event-stream` and `cache: "no-store"`, read through
// response.body as it arrives: the bridge's reads keep the app alive while it is open, as a
// browser tab is kept by an open stream, and the wait before a reconnection is a ref'd timer. A
// 200 answer of type text/event-stream opens it ("open"); anything else fails it for good
// (readyState CLOSED, "error"). A dropped connection or an ended stream reconnects after the
// reconnection time (the stream's `retry:`, 3 s by default) with `Last-Event-ID`, firing "error"
// first with readyState CONNECTING, as the standard says. close() ends it: no event after.

const { requireArguments, dictionary, enumerable, toStringTag, constants } = internals.get("webidl");
const Event = internals.get("Event");
const EventTarget = internals.get("EventTarget");
const defineEventHandlers = internals.get("defineEventHandlers");
const TextDecoder = internals.get("TextDecoder");
const URL = internals.get("URL");
const DOMException = internals.get("DOMException");
const fetch = internals.get("fetch");

// ---- MessageEvent ------------------------------------------------------------------------------

class MessageEvent extends Event {
  #init;

  constructor(type, eventInitDict = undefined) {
    requireArguments(arguments.length, 1, "Failed to construct 'MessageEvent'");
    super(type, eventInitDict);
    const init = dictionary(eventInitDict, "Failed to construct 'MessageEvent'") ?? {};
    this.#init = {
      data: init.data === undefined ? null : init.data,
      origin: init.origin === undefined ? "" : `${init.origin}`,
      lastEventId: init.lastEventId === undefined ? "" : `${init.lastEventId}`,
      source: init.source === undefined ? null : init.source,
      // Without ports, the empty frozen array is made when first read: most events never are.
      ports: init.ports === undefined ? null : Object.freeze(Array.from(init.ports)),
    };
  }

  static #of(event, member) {
    if (event === null || typeof event !== "object" || !(#init in event)) {
      throw new TypeError(`MessageEvent.prototype.${member}: 'this' is not a MessageEvent`);
    }
    return event.#init;
  }

  get data() { return MessageEvent.#of(this, "data").data; }
  get origin() { return MessageEvent.#of(this, "origin").origin; }
  get lastEventId() { return MessageEvent.#of(this, "lastEventId").lastEventId; }
  get source() { return MessageEvent.#of(this, "source").source; }
  get ports() {
    const init = MessageEvent.#of(this, "ports");
    init.ports ??= Object.freeze([]);
    return init.ports;
  }

  initMessageEvent(type, bubbles = false, cancelable = false, data = null, origin = "", lastEventId = "", source = null, ports = []) {
    requireArguments(arguments.length, 1, "Failed to execute 'initMessageEvent' on 'MessageEvent'");
    const init = MessageEvent.#of(this, "initMessageEvent");
    this.initEvent(type, bubbles, cancelable);
    Object.assign(init, { data, origin: `${origin}`, lastEventId: `${lastEventId}`, source, ports: Object.freeze(Array.from(ports)) });
  }
}
enumerable(MessageEvent.prototype, ["data", "origin", "lastEventId", "source", "ports", "initMessageEvent"]);
toStringTag(MessageEvent.prototype, "MessageEvent");

// ---- The event stream's parser ------------------------------------------------------------------

// Lines of text/event-stream, fed decoded text as it arrives; calls `dispatch` for each event and
// `retry` for each valid retry field (HTML §9.2.6).
class EventStreamParser {
  #buffer = "";
  #sawCR = false;
  #data = "";
  #type = "";
  #id = null;

  constructor(dispatch, retry, setId) {
    this.dispatch = dispatch;
    this.retry = retry;
    this.setId = setId;
  }

  push(text) {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 && this.#sawCR && i === start && this.#buffer === "") {
        // The LF of a CRLF whose CR ended the last line.
        start = i + 1;
        this.#sawCR = false;
        continue;
      }
      this.#sawCR = false;
      if (c === 13 || c === 10) {
        this.#line(this.#buffer + text.slice(start, i));
        this.#buffer = "";
        this.#sawCR = c === 13;
        start = i + 1;
      }
    }
    this.#buffer += text.slice(start);
  }

  // A stream that ends drops the event it was building (no blank line came).
  reset() {
    this.#buffer = "";
    this.#sawCR = false;
    this.#data = "";
    this.#type = "";
  }

  #line(line) {
    if (line === "") {
      const id = this.#id;
      this.#id = null;
      if (id !== null) this.setId(id);
      if (this.#data === "") {
        this.#type = "";
        return;
      }
      const data = this.#data.endsWith("\n") ? this.#data.slice(0, -1) : this.#data;
      const type = this.#type || "message";
      this.#data = "";
      this.#type = "";
      this.dispatch(type, data);
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ":" a comment
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case "event": this.#type = value; break;
      case "data": this.#data += value + "\n"; break;
      case "id": if (!value.includes("\0")) this.#id = value; break;
      case "retry": if (/^[0-9]+$/.test(value)) this.retry(Number(value)); break;
      default: break;
    }
  }
}

// ---- EventSource -------------------------------------------------------------------------------

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;

class EventSource extends EventTarget {
  #url;
  #withCredentials;
  #readyState = CONNECTING;
  #lastEventId = "";
  #reconnectMs = 3000;
  #controller = null;
  #timer = null;

  constructor(url, eventSourceInitDict = undefined) {
    requireArguments(arguments.length, 1, "Failed to construct 'EventSource'");
    super();
    let parsed;
    try {
      parsed = new URL(`${url}`);
    } catch {
      throw new DOMException(`Failed to construct 'EventSource': The URL '${url}' is invalid.`, "SyntaxError");
    }
    const init = dictionary(eventSourceInitDict, "Failed to construct 'EventSource'") ?? {};
    this.#url = parsed.href;
    this.#withCredentials = !!init.withCredentials;
    queueMicrotask(() => this.#connect());
  }

  get url() { return this.#url; }
  get withCredentials() { return this.#withCredentials; }
  get readyState() { return this.#readyState; }

  close() {
    this.#readyState = CLOSED;
    clearTimeout(this.#timer);
    this.#timer = null;
    this.#controller?.abort();
    this.#controller = null;
  }

  async #connect() {
    if (this.#readyState === CLOSED) return;
    const controller = new AbortController();
    this.#controller = controller;
    const headers = { Accept: "text/event-stream" };
    if (this.#lastEventId !== "") headers["Last-Event-ID"] = this.#lastEventId;
    let response;
    try {
      response = await fetch(this.#url, { headers, cache: "no-store", credentials: this.#withCredentials ? "include" : "same-origin", signal: controller.signal });
    } catch {
      if (controller.signal.aborted) return;
      this.#reconnect();
      return;
    }
    const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (response.status !== 200 || type !== "text/event-stream" || response.body === null) {
      // Fail the connection: no reconnection.
      response.body?.cancel().catch(() => {});
      if (this.#readyState === CLOSED) return;
      this.#readyState = CLOSED;
      this.dispatchEvent(new Event("error"));
      return;
    }
    if (this.#readyState === CLOSED) return;
    this.#readyState = OPEN;
    this.dispatchEvent(new Event("open"));
    const origin = new URL(response.url || this.#url).origin;
    const parser = new EventStreamParser(
      (eventType, data) => {
        if (this.#readyState === CLOSED) return;
        this.dispatchEvent(new MessageEvent(eventType, { data, origin, lastEventId: this.#lastEventId }));
      },
      (ms) => { this.#reconnectMs = ms; },
      (id) => { this.#lastEventId = id; },
    );
    const decoder = new TextDecoder("utf-8");
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
        if (this.#readyState === CLOSED) return;
      }
      parser.push(decoder.decode());
    } catch {
      if (controller.signal.aborted) return;
    }
    parser.reset();
    this.#reconnect();
  }

  // Reestablish the connection: CONNECTING, "error", then a new fetch after the reconnection time.
  #reconnect() {
    if (this.#readyState === CLOSED) return;
    this.#readyState = CONNECTING;
    this.dispatchEvent(new Event("error"));
    if (this.#readyState === CLOSED) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#connect();
    }, this.#reconnectMs);
  }
}
defineEventHandlers(EventSource.prototype, ["open", "message", "error"]);
constants(EventSource, [["CONNECTING", CONNECTING], ["OPEN", OPEN], ["CLOSED", CLOSED]]);
enumerable(EventSource.prototype, ["url", "withCredentials", "readyState", "onopen", "onmessage", "onerror", "close"]);
toStringTag(EventSource.prototype, "EventSource");

define("MessageEvent", MessageEvent);
define("EventSource", EventSource);
