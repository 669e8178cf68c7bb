"use strict";
// Hybrid.api: declared APIs, the design articles' "discrete" API managers. A module declares each
// API of a server once (method, URL template, a JSON Schema for its params, how it pages, and a
// reformer that turns the answer into what the screen needs); business code then calls
// `orders.load(params)` and `orders.loadNext()` and never builds a URL or reads a status.
//
//   const orders = Hybrid.api.declare({
//     name: "orders", method: "GET", url: "https://shop.example.com/v1/shops/{shopId}/orders",
//     params: { type: "object", properties: { shopId: { type: "string" } }, required: ["shopId"] },
//     paging: { style: "page", size: 20 },
//     reformer: (answer) => answer.body.items,
//   }, { signal: screen.signal });
//   const first = await orders.load({ shopId: "s1" });   // reformer's value for page 1
//   const more = await orders.loadNext();                // page 2, or null when there is none
//
// Params are checked by the bridge's schema validator (bridge.validate, the one contracts are
// checked with) before anything is sent: a bad one rejects with a HybridError E_BAD_PARAMS whose
// path points into the params. Each call goes through network.request, so grants, quotas, retries
// (`retry`) and signing (`sign`) apply. A load cancels the call this API still has in flight (the
// latest load wins, as a search field wants); the owner's signal (declare's `signal`) cancels
// whatever is in flight when it aborts, and every later call rejects with its reason.

const { call, HybridError } = native.hybrid;

const PAGING_STYLES = ["page", "offset", "cursor"];
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

function badDeclaration(name, field, expected) {
  return new TypeError(`Hybrid.api.declare(${name ? JSON.stringify(name) : "…"}): ${field}: expected ${expected}`);
}

function checkDeclaration(spec) {
  if (spec === null || typeof spec !== "object") throw badDeclaration(undefined, "the declaration", "an object {name, url, ...}");
  const { name } = spec;
  if (typeof name !== "string" || name === "") throw badDeclaration(name, "name", "a non-empty string");
  if (typeof spec.url !== "string" || !/^https?:\/\//.test(spec.url)) throw badDeclaration(name, "url", "an http or https URL template");
  if (spec.method !== undefined && typeof spec.method !== "string") throw badDeclaration(name, "method", "a string such as GET or POST");
  if (spec.reformer !== undefined && typeof spec.reformer !== "function") throw badDeclaration(name, "reformer", "a function (answer) => value");
  const paging = spec.paging;
  if (paging !== undefined) {
    if (paging === null || typeof paging !== "object" || !PAGING_STYLES.includes(paging.style)) {
      throw badDeclaration(name, "paging.style", `one of ${PAGING_STYLES.join(", ")}`);
    }
    if (paging.style === "cursor" && typeof paging.next !== "function") {
      throw badDeclaration(name, "paging.next", "a function (answer) => the next cursor, or null at the end");
    }
    if (paging.size !== undefined && !(Number.isInteger(paging.size) && paging.size > 0)) {
      throw badDeclaration(name, "paging.size", "a positive integer");
    }
  }
}

// The URL for `params`: each {name} of the template replaced by its param (encoded), the rest of
// the params in the query string unless the method sends them as the body.
function buildRequest(spec, method, params, pageParams) {
  const rest = { ...params, ...pageParams };
  const url = spec.url.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, key) => {
    if (!(key in rest)) throw new HybridError({ code: "E_BAD_PARAMS", message: `${spec.name}: the URL needs param ${key}`, target: "api", action: spec.name, path: `/${key}` });
    const value = rest[key];
    delete rest[key];
    return encodeURIComponent(String(value));
  });
  const request = { url, method };
  if (BODY_METHODS.has(method)) {
    request.json = rest;
  } else {
    const query = Object.entries(rest).filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`).join("&");
    if (query) request.url += (url.includes("?") ? "&" : "?") + query;
  }
  for (const field of ["headers", "timeoutMs", "retry", "sign", "responseType"]) {
    if (spec[field] !== undefined) request[field] = spec[field];
  }
  return request;
}

class DeclaredApi {
  #spec;
  #method;
  #owner;
  #params;
  #page = null;
  #hasMore = false;
  #inFlight = null;

  constructor(spec, owner) {
    this.#spec = spec;
    this.#method = (spec.method ?? "GET").toUpperCase();
    this.#owner = owner;
    owner?.addEventListener("abort", () => this.cancel(), { once: true });
  }

  get name() { return this.#spec.name; }
  /** Whether loadNext has a page to load: after a load, until a page says it was the last. */
  get hasMore() { return this.#hasMore; }
  /** Whether a call of this API is in flight. */
  get loading() { return this.#inFlight !== null; }

  /** The first page (or the only answer) for `params`, through the reformer. */
  async load(params = {}, options = {}) {
    await this.#check(params);
    this.#params = params;
    this.#page = this.#firstPage();
    return this.#send(options);
  }

  /** The page after the last one loaded, through the reformer; null when there is none. */
  async loadNext(options = {}) {
    if (!this.#spec.paging) throw new TypeError(`${this.name}: loadNext needs paging in the declaration`);
    if (this.#params === undefined) throw new TypeError(`${this.name}: loadNext before load`);
    if (this.#inFlight) return this.#inFlight.promise;
    if (!this.#hasMore) return null;
    return this.#send(options);
  }

  /** Cancels the call in flight, if any: it rejects with E_CANCELLED. */
  cancel() {
    this.#inFlight?.controller.abort();
  }

  async #check(params) {
    this.#owner?.throwIfAborted();
    if (this.#spec.params === undefined) return;
    const verdict = await call("bridge", "validate", { schema: this.#spec.params, value: params });
    if (!verdict.valid) {
      throw new HybridError({ code: "E_BAD_PARAMS", message: `${this.name}: params${verdict.path}: ${verdict.message}`, target: "api", action: this.name, path: verdict.path });
    }
  }

  #firstPage() {
    const paging = this.#spec.paging;
    if (!paging) return null;
    if (paging.style === "page") return paging.first ?? 1;
    if (paging.style === "offset") return 0;
    return paging.start ?? null;
  }

  #pageParams() {
    const paging = this.#spec.paging;
    if (!paging) return {};
    const size = paging.size ?? 20;
    switch (paging.style) {
      case "page": return { [paging.pageParam ?? "page"]: this.#page, [paging.sizeParam ?? "pageSize"]: size };
      case "offset": return { [paging.offsetParam ?? "offset"]: this.#page, [paging.limitParam ?? "limit"]: size };
      default: return this.#page === null ? {} : { [paging.cursorParam ?? "cursor"]: this.#page };
    }
  }

  // Sends the current page: the previous call in flight is cancelled first (the latest wins).
  #send(options) {
    this.cancel();
    this.#owner?.throwIfAborted();
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const flight = { controller, promise: null };
    this.#inFlight = flight;
    flight.promise = (async () => {
      try {
        const request = buildRequest(this.#spec, this.#method, this.#params, this.#pageParams());
        const answer = await call("network", "request", request, { signal: controller.signal });
        if (answer.status >= 400) {
          throw new HybridError({ code: "E_FAILED", message: `${this.name}: ${this.#method} ${request.url} answered ${answer.status}`, target: "api", action: this.name, details: { reason: "status", status: answer.status, body: answer.body } });
        }
        const value = this.#spec.reformer ? await this.#spec.reformer(answer, this.#params) : answer.body;
        this.#advance(answer, value);
        return value;
      } finally {
        options.signal?.removeEventListener("abort", onAbort);
        if (this.#inFlight === flight) this.#inFlight = null;
      }
    })();
    return flight.promise;
  }

  // After a page: where the next one starts, and whether there is one. A page shorter than the
  // size is the last; `paging.hasMore(answer)` decides instead when given.
  #advance(answer, value) {
    const paging = this.#spec.paging;
    if (!paging) return;
    const size = paging.size ?? 20;
    const count = Array.isArray(value) ? value.length : undefined;
    const guess = count === undefined ? false : count >= size;
    switch (paging.style) {
      case "page":
        this.#hasMore = paging.hasMore ? !!paging.hasMore(answer) : guess;
        this.#page += 1;
        break;
      case "offset":
        this.#hasMore = paging.hasMore ? !!paging.hasMore(answer) : guess;
        this.#page += count ?? size;
        break;
      default: {
        const next = paging.next(answer);
        this.#hasMore = next !== null && next !== undefined && next !== "";
        this.#page = this.#hasMore ? next : null;
      }
    }
  }
}

/**
 * Declares one API; `options.signal` is its owner's (a screen's AbortController): when it aborts,
 * the call in flight is cancelled and later calls reject with its reason.
 */
function declare(spec, options = {}) {
  checkDeclaration(spec);
  return new DeclaredApi(Object.freeze({ ...spec }), options.signal);
}

native.hybrid.api = Object.freeze({ declare });
