"use strict";
// The JS client of the `kv` target: each action as a method, `Hybrid.kv.set({bucket,
// key, value})`, and a read cache in JS in front of the native one, so that a `get` that hits
// never crosses the bridge.
//
// Why the cache is never stale: native bumps a counter at every commit to the app's store, after
// the commit is visible. This client reads the counter as memory (native.counters.kv.commits, a
// Uint32Array over the native word), without a call, and drops the whole cache whenever it has
// moved. A get that misses remembers its answer only if no commit came between the moment it read
// the counter and its answer. So once a write has resolved, no get returns what it replaced, from
// this app or any other code in the process writing the same store.
//
// Misses issued in the same turn of the event loop (before the code that issued them awaits)
// cross the bridge together, as one kv.getMany at the end of the turn, as a DataLoader batches:
// one crossing, one contract check and one JSON parse for all of them.

const { call, answerNow } = native.client;
const commits = native.counters.kv ? native.counters.kv.commits : null;

/**
 * Roughly how much the cached entries may hold, in UTF-16 units of their JSON: about 2 bytes of
 * heap each, so the default, 32 Mi units, is about the native cache's 64 MiB.
 */
let capacity = 32 * 1024 * 1024;
/**
 * bucket → key → slot { bucket, key, entry, size, used }. Two levels, so that a lookup builds no
 * string. Eviction is CLOCK (second chance), close to least recently used: a hit only sets `used`,
 * and `ring` holds the slots in insertion order; a slot found used is given another round.
 */
const buckets = new Map();
let ring = [];
let ringStart = 0;
let count = 0;
let held = 0;
let seen = commits === null ? 0 : commits[0];
const stats = { hits: 0, misses: 0 };

function dropAll() {
  buckets.clear();
  ring = [];
  ringStart = 0;
  count = 0;
  held = 0;
}

function forget(slot) {
  const keys = buckets.get(slot.bucket);
  if (keys === undefined || keys.get(slot.key) !== slot) return;
  keys.delete(slot.key);
  if (keys.size === 0) buckets.delete(slot.bucket);
  count--;
  held -= slot.size;
}

// A deep copy of a JSON value: what a hit hands out, so callers never share the cached one.
function copy(value) {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i]);
    return out;
  }
  if (ArrayBuffer.isView(value)) return value.slice();
  const out = {};
  for (const name in value) {
    // A "__proto__" key is data, as the bridge hands it over: assigning it would set a prototype.
    if (name === "__proto__") Object.defineProperty(out, name, { value: copy(value[name]), writable: true, enumerable: true, configurable: true });
    else out[name] = copy(value[name]);
  }
  return out;
}

// Roughly what `value` weighs, in UTF-16 units of its JSON: what the bound counts.
function sizeOf(value) {
  switch (typeof value) {
    case "string": return value.length + 2;
    case "object": break;
    default: return 8;
  }
  if (value === null) return 4;
  if (ArrayBuffer.isView(value)) return value.byteLength * 4;
  let size = 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) size += sizeOf(value[i]) + 1;
  } else {
    for (const name in value) size += name.length + 4 + sizeOf(value[name]);
  }
  return size;
}

function remember(bucket, key, entry, size) {
  if (size > capacity / 8) return;
  let keys = buckets.get(bucket);
  if (keys === undefined) buckets.set(bucket, (keys = new Map()));
  const earlier = keys.get(key);
  if (earlier !== undefined) forget(earlier);
  // Used from the start, as least-recently-used counts an insertion: a slot just read is not the
  // first to go.
  const slot = { bucket, key, entry, size, used: true };
  keys.set(key, slot);
  ring.push(slot);
  count++;
  held += size;
  trim();
}

// Evicts until the cache fits its bound: the oldest slot not used since its last round goes.
function trim() {
  while (held > capacity && ringStart < ring.length) {
    const slot = ring[ringStart++];
    if (slot.used && buckets.get(slot.bucket)?.get(slot.key) === slot) {
      slot.used = false;
      ring.push(slot);
    } else {
      forget(slot);
    }
  }
  // The ring also holds slots already replaced or forgotten: compact it when they are most of it.
  if (ring.length - ringStart > 2 * count + 1024 || (ringStart > 1024 && ringStart * 2 > ring.length)) {
    ring = ring.slice(ringStart).filter((slot) => buckets.get(slot.bucket)?.get(slot.key) === slot);
    ringStart = 0;
  }
}

// True when `params` names nothing but bucket and key, as the contract allows.
function onlyBucketAndKey(params) {
  for (const name in params) if (name !== "bucket" && name !== "key") return false;
  return true;
}

function get(params, options) {
  const bucket = params && params.bucket;
  const key = params && params.key;
  // Anything unusual (bad params, a signal, a timeout) takes the bridge, which checks it.
  if (commits === null || typeof bucket !== "string" || typeof key !== "string" || options !== undefined || !onlyBucketAndKey(params)) {
    return call("kv", "get", params, options);
  }
  const now = commits[0];
  if (now !== seen) {
    dropAll();
    seen = now;
  }
  const keys = buckets.get(bucket);
  const cached = keys === undefined ? undefined : keys.get(key);
  if (cached !== undefined) {
    const entry = cached.entry;
    if (entry === null || entry.expiresAt === null || entry.expiresAt > Date.now()) {
      stats.hits++;
      cached.used = true;
      return Promise.resolve(copy(entry));
    }
    forget(cached);
  }
  stats.misses++;
  // The miss waits for the end of this turn, when the misses issued together cross as one batch.
  if (batch === null) {
    batch = [];
    queueMicrotask(flush);
  }
  return new Promise((resolve, reject) => batch.push({ bucket, key, resolve, reject }));
}

/** Misses waiting for the end of the turn: {bucket, key, resolve, reject}. */
let batch = null;
/** kv.getMany's bound on items per call (services/kv.json). */
const batchLimit = 10000;

// Reads the turn's misses: one kv.getMany per up to `batchLimit` of them (a lone miss is a plain
// kv.get). kv.get and getMany are inline: the answer (or error) is here at once.
function flush() {
  const misses = batch;
  batch = null;
  for (let start = 0; start < misses.length; start += batchLimit) {
    const part = misses.slice(start, start + batchLimit);
    const now = commits[0];
    if (now !== seen) {
      dropAll();
      seen = now;
    }
    let entries;
    try {
      entries = part.length === 1 ? [read("get", { bucket: part[0].bucket, key: part[0].key })]
        : read("getMany", { items: part.map(({ bucket, key }) => ({ bucket, key })) }).entries;
    } catch (error) {
      // One bad item (a key over the contract's length) must not fail the others: each alone.
      if (part.length === 1) part[0].reject(error);
      else for (const miss of part) settleAlone(miss);
      continue;
    }
    // Kept only if no commit came since the counter was read: the answers may predate it.
    const keep = commits[0] === now;
    for (let i = 0; i < part.length; i++) {
      const miss = part[i];
      const entry = entries[i];
      if (keep) remember(miss.bucket, miss.key, entry, miss.bucket.length + miss.key.length + 64 + sizeOf(entry));
      miss.resolve(copy(entry));
    }
  }
}

// The params also go as JSON text: they are plain strings, which native parses faster than it
// walks an object.
function read(action, params) {
  const answer = answerNow("kv", action, params, JSON.stringify(params));
  if (answer instanceof Promise) throw new Error(`kv.${action} was expected to answer at once`);
  return answer;
}

function settleAlone(miss) {
  try {
    miss.resolve(copy(read("get", { bucket: miss.bucket, key: miss.key })));
  } catch (error) {
    miss.reject(error);
  }
}

const client = { get };
for (const action of ["set", "setMany", "getMany", "delete", "keys", "defineIndex", "query"]) {
  client[action] = (params, options) => call("kv", action, params, options);
}
/** Hits and misses of the JS cache, and what it holds. */
client.cacheStats = () => ({ hits: stats.hits, misses: stats.misses, entries: count, size: held, capacity });
/** Sets the JS cache's bound (in UTF-16 units of JSON); 0 turns the cache off. */
client.setCacheCapacity = (units) => {
  if (typeof units !== "number" || !(units >= 0)) throw new TypeError("setCacheCapacity: expected a number of units >= 0");
  capacity = units;
  trim();
};

native.hybrid.kv = Object.freeze(client);
