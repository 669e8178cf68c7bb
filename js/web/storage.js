"use strict";
// Web Storage (the HTML Standard's "Web storage"): the Storage interface, localStorage and
// sessionStorage.
//
// localStorage keeps the app's items in its kv store (bucket "", which no kv call can name):
// read once, at its first use, into a Map that every read is served from; each setItem,
// removeItem and clear changes the Map and commits to the store before it returns
// (`native.set`, `native.remove`, `native.clear`; WebStorageBucket.swift), so a change that has
// returned survives the process being killed, as a returned kv.set does. sessionStorage is the
// same Map, kept for the run only. Each holds at most `native.quota()` "bytes", counted as
// browsers count them: the UTF-16 code units of its keys and values; past it, setItem throws a
// QuotaExceededError DOMException, and so does a write the kv file's own cap (the same quota)
// refuses. There is no other document to tell, so no "storage" event is fired.
//
// Storage objects have named properties (`localStorage.token = "x"`, `delete localStorage.token`,
// `Object.keys(localStorage)`), which JS gives only to a Proxy: each storage object is one, over
// an object whose prototype is Storage.prototype, with Web IDL's legacy platform object hooks as
// its traps. A name the prototype chain has (`key`, `getItem`, `toString`) reads as that member,
// never as an item, and assigning to any string name sets the item, as the spec has it.

const domException = (message, name) => new (internals.get("DOMException"))(message, name);
const quota = native.quota();
const illegal = Symbol("Storage");
// The storage objects programs hold (the proxies) → their areas.
const areas = new WeakMap();

function requireArguments(count, needed, member) {
  if (count < needed) {
    throw new TypeError(`Failed to execute '${member}' on 'Storage': ${needed} argument${needed === 1 ? "" : "s"} required, but only ${count} present.`);
  }
}

function areaOf(storage, member) {
  const area = areas.get(storage);
  if (area === undefined) throw new TypeError(`Storage.prototype.${member}: 'this' is not a Storage (Illegal invocation)`);
  return area;
}

// A native failure as the DOMException the spec names, with the area's name in front.
function persisted(area, write) {
  try {
    write();
  } catch (error) {
    if (error !== null && typeof error === "object" && (error.name === "QuotaExceededError" || error.name === "SecurityError")) {
      throw domException(`${area.name}: ${error.message}`, error.name);
    }
    throw error;
  }
}

// The area's items, read from the kv store at the first use.
function items(area) {
  let map = area.map;
  if (map === null) {
    map = new Map();
    let used = 0;
    if (area.persistent) {
      let list;
      persisted(area, () => { list = native.load(); });
      for (let i = 0; i < list.length; i += 2) {
        map.set(list[i], list[i + 1]);
        used += list[i].length + list[i + 1].length;
      }
    }
    area.map = map;
    area.used = used;
  }
  return map;
}

function shown(key) {
  return key.length > 40 ? `${key.slice(0, 40)}...` : key;
}

// The HTML Standard's "set an item" (the value is already a string).
function setItem(area, key, value) {
  const map = items(area);
  const old = map.get(key);
  if (old === value) return;
  const used = area.used - (old === undefined ? 0 : key.length + old.length) + key.length + value.length;
  if (used > quota) {
    throw domException(`${area.name}: setting '${shown(key)}' would make its items ${used} bytes (UTF-16 code units of keys and values), past its quota of ${quota} bytes (quotas.kvBytes in app.json)`,
      "QuotaExceededError");
  }
  if (area.persistent) persisted(area, () => native.set(key, value));
  map.set(key, value);
  area.used = used;
  if (old === undefined) area.keys = null;
}

function removeItem(area, key) {
  const map = items(area);
  const old = map.get(key);
  if (old === undefined) return;
  if (area.persistent) persisted(area, () => native.remove(key));
  map.delete(key);
  area.used -= key.length + old.length;
  area.keys = null;
}

class Storage {
  constructor(key = undefined) {
    if (key !== illegal) throw new TypeError("Illegal constructor");
  }

  get length() {
    return items(areaOf(this, "length")).size;
  }

  key(index) {
    const area = areaOf(this, "key");
    requireArguments(arguments.length, 1, "key");
    const n = index >>> 0; // Web IDL's unsigned long
    const map = items(area);
    if (n >= map.size) return null;
    // Kept until the set of keys changes, so that a loop over key(i) is not quadratic.
    area.keys ??= [...map.keys()];
    return area.keys[n];
  }

  getItem(key) {
    const area = areaOf(this, "getItem");
    requireArguments(arguments.length, 1, "getItem");
    const value = items(area).get(`${key}`);
    return value === undefined ? null : value;
  }

  setItem(key, value) {
    const area = areaOf(this, "setItem");
    requireArguments(arguments.length, 2, "setItem");
    setItem(area, `${key}`, `${value}`);
  }

  removeItem(key) {
    const area = areaOf(this, "removeItem");
    requireArguments(arguments.length, 1, "removeItem");
    removeItem(area, `${key}`);
  }

  clear() {
    const area = areaOf(this, "clear");
    const map = items(area);
    if (map.size === 0) return;
    if (area.persistent) persisted(area, () => native.clear());
    map.clear();
    area.used = 0;
    area.keys = null;
  }
}
// Web IDL attributes and operations are enumerable; class members are not.
for (const name of ["length", "key", "getItem", "setItem", "removeItem", "clear"]) {
  Object.defineProperty(Storage.prototype, name, { enumerable: true });
}
Object.defineProperty(Storage.prototype, Symbol.toStringTag, { value: "Storage", configurable: true });

// A storage object: the proxy, with Web IDL's [[GetOwnProperty]], [[Set]], [[DefineOwnProperty]],
// [[Delete]], [[OwnPropertyKeys]] and [[PreventExtensions]] of a legacy platform object that has
// a named getter, setter and deleter (and no [LegacyOverrideBuiltIns]).
function makeStorage(name, persistent) {
  const area = { name, persistent, map: null, used: 0, keys: null };
  const target = new Storage(illegal);
  // The named property visibility algorithm: an item is a property unless the object or its
  // prototype chain has that name.
  const visible = (key) => items(area).has(key) && !(key in target);
  const storage = new Proxy(target, {
    get(target, key, receiver) {
      if (typeof key === "string") {
        const value = items(area).get(key);
        if (value !== undefined && !(key in target)) return value;
      }
      return Reflect.get(target, key, receiver);
    },
    set(target, key, value, receiver) {
      if (typeof key === "string" && receiver === storage) {
        setItem(area, key, `${value}`);
        return true;
      }
      return Reflect.set(target, key, value, receiver);
    },
    has(target, key) {
      return (typeof key === "string" && items(area).has(key)) || Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === "string" && visible(key)) {
        return { value: items(area).get(key), writable: true, enumerable: true, configurable: true };
      }
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    defineProperty(target, key, descriptor) {
      if (typeof key === "string" && !Object.prototype.hasOwnProperty.call(target, key)) {
        // Only a data descriptor reaches the named setter; an accessor is refused.
        if ("get" in descriptor || "set" in descriptor || !("value" in descriptor || "writable" in descriptor)) return false;
        setItem(area, key, `${descriptor.value}`);
        return true;
      }
      return Reflect.defineProperty(target, key, descriptor);
    },
    deleteProperty(target, key) {
      if (typeof key === "string" && visible(key)) {
        removeItem(area, key);
        return true;
      }
      return Reflect.deleteProperty(target, key);
    },
    ownKeys(target) {
      const keys = [];
      for (const key of items(area).keys()) {
        if (!(key in target)) keys.push(key);
      }
      for (const key of Reflect.ownKeys(target)) keys.push(key);
      return keys;
    },
    preventExtensions() {
      return false;
    },
  });
  areas.set(storage, area);
  return storage;
}

define("Storage", Storage);
define("localStorage", makeStorage("localStorage", true));
define("sessionStorage", makeStorage("sessionStorage", false));
// Storage objects are platform objects that cannot be cloned.
internals.platformObjects.register((value) => areas.has(value), null);
