// console.js — a node-like `console` for every HybridHost JavaScript context.
//
// The host evaluates this file as the body of `(function (native) { ... })`, where
// `native.print(fd, text)` writes text to stdout (1) or stderr (2) and `native.now()` is a
// monotonic clock in milliseconds. It installs `console` and, for the other runtime scripts,
// `__hybridInspect` (both non-enumerable) and nothing else.
//
// `inspect` follows node's `util.inspect` defaults (depth 2, 80 columns, 100 items, 10000
// characters). It never calls getters or user methods, except where node does too: reading
// Symbol.toStringTag, an object's [Symbol.for("nodejs.util.inspect.custom")](depth, options,
// inspect) method, and, for `%s`, a user-defined toString.
"use strict";

const DEFAULTS = { depth: 2, breakLength: 80, compact: 3, maxArrayLength: 100, maxStringLength: 10000 };

// Intrinsic accessors: they tell a Map from a Map look-alike without running user code.
const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const TypedArray = Object.getPrototypeOf(Uint8Array);
const typedArrayName = getter(TypedArray.prototype, Symbol.toStringTag);
const typedArrayLength = getter(TypedArray.prototype, "length");
const mapSize = getter(Map.prototype, "size");
const setSize = getter(Set.prototype, "size");
const regexpSource = getter(RegExp.prototype, "source");
const bufferLength = getter(ArrayBuffer.prototype, "byteLength");
const viewLength = getter(DataView.prototype, "byteLength");
const objectTag = (v) => Object.prototype.toString.call(v).slice(8, -1);
const has = (v, fn, ...args) => { try { fn.call(v, ...args); return true; } catch { return false; } };
const CUSTOM = Symbol.for("nodejs.util.inspect.custom");
const BOXED = [["Number", Number], ["String", String], ["Boolean", Boolean], ["BigInt", BigInt], ["Symbol", Symbol]];

function inspect(value, options) {
  const ctx = { ...DEFAULTS, ...options, seen: [], circular: null, indentation: 0, currentDepth: 0 };
  if (ctx.depth === null) ctx.depth = Infinity;
  return formatValue(ctx, value, 0);
}

function formatValue(ctx, value, depth) {
  if (value === null) return "null";
  if (typeof value !== "object" && typeof value !== "function") return formatPrimitive(ctx, value);
  if (ctx.seen.includes(value)) {
    ctx.circular ??= new Map();
    if (!ctx.circular.has(value)) ctx.circular.set(value, ctx.circular.size + 1);
    return `[Circular *${ctx.circular.get(value)}]`;
  }
  let custom;
  try { custom = value[CUSTOM]; } catch { /* a throwing getter: inspect the object as it is */ }
  if (typeof custom === "function" && custom !== inspect && ctx.customInspect !== false) {
    const result = custom.call(value, ctx.depth - depth, { ...DEFAULTS, depth: ctx.depth - depth }, inspect);
    if (result !== value) {
      if (typeof result !== "string") return formatValue(ctx, result, depth);
      return result.replaceAll("\n", `\n${" ".repeat(ctx.indentation)}`);
    }
  }
  return formatObject(ctx, value, depth);
}

function formatPrimitive(ctx, value) {
  switch (typeof value) {
    case "string": return formatString(ctx, value);
    case "number": return formatNumber(value);
    case "bigint": return `${value}n`;
    case "symbol": return value.toString();
    default: return String(value); // undefined, booleans
  }
}

const formatNumber = (n) => (Object.is(n, -0) ? "-0" : String(n));

function formatString(ctx, s) {
  let trailer = "";
  if (s.length > ctx.maxStringLength) {
    const rest = s.length - ctx.maxStringLength;
    s = s.slice(0, ctx.maxStringLength);
    trailer = `... ${rest} more character${rest > 1 ? "s" : ""}`;
  }
  // Like node, a long string is shown as one quoted piece per line, joined with "+".
  if (s.length > 16 && s.length > ctx.breakLength - ctx.indentation - 4 && s.includes("\n")) {
    const lines = s.match(/[^\n]*\n|[^\n]+$/g);
    return lines.map(quote).join(` +\n${" ".repeat(ctx.indentation + 2)}`) + trailer;
  }
  return quote(s) + trailer;
}

const ESCAPES = { "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", "\\": "\\\\" };

// Single quotes unless the string holds some; then double quotes, then backticks (node's rule).
function quote(s) {
  let q = "'";
  if (s.includes("'")) {
    if (!s.includes('"')) q = '"';
    else if (!s.includes("`") && !s.includes("${")) q = "`";
  }
  return q + escape(s, q) + q;
}

function escape(s, q) {
  const body = s.replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]|[\x00-\x1f\x7f-\x9f\\]/g, (c) => {
    if (c.length === 2) return c; // a well-formed surrogate pair
    const code = c.charCodeAt(0);
    if (code >= 0xd800) return `\\u${code.toString(16)}`;
    return ESCAPES[c] ?? `\\x${code.toString(16).toUpperCase().padStart(2, "0")}`;
  });
  return q === "'" ? body.replaceAll("'", "\\'") : body;
}

// The name of the first constructor on the prototype chain; null for null-prototype objects.
function constructorName(value) {
  for (let o = value; o !== null; o = Object.getPrototypeOf(o)) {
    const d = Object.getOwnPropertyDescriptor(o, "constructor");
    if (d && typeof d.value === "function" && typeof d.value.name === "string" && d.value.name !== "") {
      return d.value.name;
    }
  }
  return Object.getPrototypeOf(value) === null ? null : "Object";
}

// Symbol.toStringTag, when it says something the constructor name does not.
function toStringTag(value, ctor) {
  let tag;
  try { tag = value[Symbol.toStringTag]; } catch { return ""; }
  if (typeof tag !== "string" || tag === ctor) return "";
  const own = Object.getOwnPropertyDescriptor(value, Symbol.toStringTag);
  return own && own.enumerable ? "" : tag; // an enumerable own tag is printed as a key anyway
}

function ownKeys(value) {
  const keys = Object.keys(value);
  for (const s of Object.getOwnPropertySymbols(value)) {
    if (Object.prototype.propertyIsEnumerable.call(value, s)) keys.push(s);
  }
  return keys;
}

const isIndex = (k) => typeof k === "string" && /^(0|[1-9][0-9]*)$/.test(k) && +k < 2 ** 32 - 1;
const items = (n) => `${n} more item${n > 1 ? "s" : ""}`;

function formatObject(ctx, value, depth) {
  const ctor = constructorName(value);
  const tag = toStringTag(value, ctor);
  // "Foo ", "Foo [tag] ", "Map(2) ", "[Object: null prototype] ".
  const prefix = (fallback, size = "") => {
    if (ctor === null) return `[${fallback}${size}: null prototype] ${tag ? `[${tag}] ` : ""}`;
    return `${ctor}${size} ${tag ? `[${tag}] ` : ""}`;
  };
  let base = "";
  let braces = ["{", "}"];
  let entries = () => [];
  let arrayLike = false;

  const proto = Object.getPrototypeOf(value);
  const plain = typeof value !== "function" && (proto === Object.prototype || proto === null);
  const typedName = plain ? undefined : typedArrayName.call(value);
  // Typed arrays list no keys: each index is one, and a big buffer would make millions of them.
  let keys = typedName === undefined && !Array.isArray(value) ? ownKeys(value) : [];
  if (plain && globalThis.__hybridModules?.isNamespace(value)) {
    braces[0] = "[Module: null prototype] {";
    keys.sort();
    if (keys.length === 0) return `${braces[0]}  }`; // node prints an empty namespace so
  } else if (plain) {
    braces[0] = ctor === "Object" ? (tag ? `Object [${tag}] {` : "{") : `${prefix("Object")}{`;
    if (keys.length === 0) return `${braces[0]}}`;
  } else if (Array.isArray(value)) {
    let indices;
    [indices, keys] = arrayKeys(value, ctx.maxArrayLength);
    const p = prefix("Array");
    braces = [`${p === "Array " ? "" : p}[`, "]"];
    if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
    arrayLike = true;
    entries = (d) => formatArrayItems(ctx, value, indices, d);
  } else if (typedName !== undefined) {
    const length = typedArrayLength.call(value);
    braces = [`${prefix(typedName, `(${length})`)}[`, "]"];
    if (length === 0) return `${braces[0]}]`;
    arrayLike = true;
    entries = () => {
      const out = [];
      for (let i = 0; i < Math.min(length, ctx.maxArrayLength); i++) out.push(formatPrimitive(ctx, value[i]));
      if (length > ctx.maxArrayLength) out.push(`... ${items(length - ctx.maxArrayLength)}`);
      return out;
    };
  } else if (has(value, mapSize)) {
    const size = mapSize.call(value);
    braces = [`${prefix("Map", `(${size})`)}{`, "}"];
    if (size === 0 && keys.length === 0) return `${braces[0]}}`;
    entries = (d) => formatCollection(ctx, Map.prototype.entries.call(value), size, d, true);
  } else if (has(value, setSize)) {
    const size = setSize.call(value);
    braces = [`${prefix("Set", `(${size})`)}{`, "}"];
    if (size === 0 && keys.length === 0) return `${braces[0]}}`;
    entries = (d) => formatCollection(ctx, Set.prototype.values.call(value), size, d, false);
  } else if (typeof value === "function") {
    base = functionBase(value, ctor, tag);
    if (keys.length === 0) return base;
  } else if (has(value, regexpSource) && value !== RegExp.prototype) {
    base = RegExp.prototype.toString.call(value);
    if (ctor !== "RegExp") base = `${prefix("RegExp")}${base}`;
    if (keys.length === 0 || depth > ctx.depth) return base;
  } else if (has(value, Date.prototype.getTime)) {
    const time = Date.prototype.getTime.call(value);
    base = Number.isNaN(time) ? "Invalid Date" : Date.prototype.toISOString.call(value);
    if (ctor !== "Date") base = `${prefix("Date")}${base}`;
    if (keys.length === 0) return base;
  } else if (value instanceof Error || objectTag(value) === "Error") {
    base = formatError(ctx, value, ctor, keys);
    if (keys.length === 0) return base;
  } else if (has(value, bufferLength)) {
    const bytes = new Uint8Array(value, 0, Math.min(bufferLength.call(value), ctx.maxArrayLength));
    const rest = bufferLength.call(value) - bytes.length;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ");
    braces[0] = `${prefix("ArrayBuffer")}{`;
    entries = () => [`[Uint8Contents]: <${hex}${rest > 0 ? ` ... ${rest} more byte${rest > 1 ? "s" : ""}` : ""}>`,
      `byteLength: ${bufferLength.call(value)}`];
  } else if (has(value, viewLength)) {
    braces[0] = `${prefix("DataView")}{`;
    entries = (d) => {
      ctx.indentation += 2;
      const buffer = formatValue(ctx, value.buffer, d);
      ctx.indentation -= 2;
      return [`byteLength: ${value.byteLength}`, `byteOffset: ${value.byteOffset}`, `buffer: ${buffer}`];
    };
  } else if (value instanceof Promise) {
    braces[0] = `${prefix("Promise")}{`; // plain JS cannot see a promise's state
    if (keys.length === 0) return `${braces[0]}}`;
  } else if (has(value, WeakMap.prototype.has, {}) || has(value, WeakSet.prototype.has, {})) {
    braces[0] = `${prefix(objectTag(value))}{`;
    entries = () => ["<items unknown>"];
  } else if (BOXED.some(([, type]) => has(value, type.prototype.valueOf))) {
    const [name, type] = BOXED.find(([, t]) => has(value, t.prototype.valueOf));
    if (name === "String") keys = keys.filter((k) => !isIndex(k));
    base = `[${name}: ${formatPrimitive({ ...ctx, indentation: 0 }, type.prototype.valueOf.call(value))}]`;
    if (keys.length === 0) return base;
  } else {
    braces[0] = ctor === "Object" ? (tag ? `Object [${tag}] {` : "{") : `${prefix("Object")}{`;
    if (keys.length === 0) return `${braces[0]}}`;
  }

  if (depth > ctx.depth) {
    return ctor === null ? "[Object: null prototype]" : `[${ctor}${tag ? ` [${tag}]` : ""}]`;
  }
  depth += 1;
  ctx.seen.push(value);
  ctx.currentDepth = depth;
  const indentation = ctx.indentation;
  let output;
  try {
    output = entries(depth);
    for (const key of keys) output.push(formatProperty(ctx, value, key, depth, false));
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    ctx.seen.pop();
    ctx.indentation = indentation;
    return `[${ctor ?? "Object"}: Inspection interrupted prematurely. Maximum call stack size exceeded.]`;
  }
  ctx.seen.pop();
  const ref = ctx.circular?.get(value);
  if (ref !== undefined) base = base ? `<ref *${ref}> ${base}` : `<ref *${ref}>`;
  return reduceToSingleString(ctx, output, base, braces, arrayLike, depth, value);
}

function formatProperty(ctx, object, key, depth, isItem) {
  const desc = Object.getOwnPropertyDescriptor(object, key) ?? { value: object[key], enumerable: true };
  let str;
  if (desc.value !== undefined) {
    ctx.indentation += 2;
    str = formatValue(ctx, desc.value, depth);
    ctx.indentation -= 2;
  } else if (desc.get && globalThis.__hybridModules?.isNamespace(object)) {
    // A module's export, a binding rather than a getter: its value, as node prints namespaces.
    let binding;
    try {
      binding = desc.get.call(object);
    } catch (error) {
      if (!(error instanceof ReferenceError)) throw error;
      str = "<uninitialized>";
    }
    if (str === undefined) {
      ctx.indentation += 2;
      str = formatValue(ctx, binding, depth);
      ctx.indentation -= 2;
    }
  } else if (desc.get) {
    str = desc.set ? "[Getter/Setter]" : "[Getter]";
  } else {
    str = desc.set ? "[Setter]" : "undefined";
  }
  if (isItem) return str;
  let name;
  if (typeof key === "symbol") name = `[${escape(key.toString(), "'")}]`;
  else if (desc.enumerable === false) name = `[${key}]`;
  else if (/^[a-zA-Z_][a-zA-Z_0-9]*$/.test(key)) name = key;
  else name = quote(key);
  return `${name}: ${str}`;
}

// [index keys, other keys] of an array. Object.keys lists every index, which is fine for usual
// arrays but slow for huge ones: there the first items are found by probing, and other keys of
// a huge (over 100000 items) dense array are not shown.
function arrayKeys(array, wanted) {
  if (array.length > 100000) {
    const indices = [];
    for (let i = 0; i < array.length && indices.length <= wanted && i < 100000; i++) {
      if (Object.prototype.hasOwnProperty.call(array, i)) indices.push(String(i));
    }
    if (indices.length > wanted) return [indices, []];
  }
  const keys = ownKeys(array);
  return [keys.filter(isIndex), keys.filter((k) => !isIndex(k))];
}

// `indices` are the array's own index keys, ascending; gaps between them are holes.
function formatArrayItems(ctx, array, indices, depth) {
  const out = [];
  const max = Math.min(ctx.maxArrayLength, array.length);
  const holes = (n) => `<${n} empty item${n > 1 ? "s" : ""}>`;
  let next = 0;
  for (const key of indices) {
    if (out.length >= max) break;
    if (+key !== next) {
      out.push(holes(+key - next));
      next = +key;
      if (out.length >= max) break;
    }
    out.push(formatProperty(ctx, array, key, depth, true));
    next++;
  }
  const rest = array.length - next;
  if (rest > 0) out.push(out.length < max ? holes(rest) : `... ${items(rest)}`);
  return out;
}

function formatCollection(ctx, iterator, size, depth, isMap) {
  const out = [];
  ctx.indentation += 2;
  for (const entry of iterator) {
    if (out.length === ctx.maxArrayLength) {
      out.push(`... ${items(size - ctx.maxArrayLength)}`);
      break;
    }
    out.push(isMap ? `${formatValue(ctx, entry[0], depth)} => ${formatValue(ctx, entry[1], depth)}`
      : formatValue(ctx, entry, depth));
  }
  ctx.indentation -= 2;
  return out;
}

function functionBase(fn, ctor, tag) {
  const nameDesc = Object.getOwnPropertyDescriptor(fn, "name");
  const name = nameDesc && typeof nameDesc.value === "string" ? nameDesc.value : "";
  const source = Function.prototype.toString.call(fn);
  if (source.startsWith("class") && source.endsWith("}")) {
    let base = `class ${name || "(anonymous)"}`;
    if (ctor !== "Function" && ctor !== null) base += ` [${ctor}]`;
    const parent = Object.getPrototypeOf(fn);
    if (parent && typeof parent.name === "string" && parent.name) base += ` extends ${parent.name}`;
    return `[${base}]`;
  }
  const type = ["AsyncFunction", "GeneratorFunction", "AsyncGeneratorFunction"].includes(objectTag(fn))
    ? objectTag(fn) : "Function";
  let base = `[${type}${ctor === null ? " (null prototype)" : ""}${name ? `: ${name}` : " (anonymous)"}]`;
  if (ctor !== type && ctor !== null) base += ` ${ctor}`;
  if (tag && tag !== type) base += ` [${tag}]`;
  return base;
}

// Node's format: the stack, whose first line is "Name: message". JavaScriptCore's stack holds only
// frames ("fn@file:1:2"), so the header is added and the frames are written node's way.
function formatError(ctx, err, ctor, keys) {
  let head;
  try { head = Error.prototype.toString.call(err); } catch { head = "Error"; }
  // Locations through the source maps of transformed modules (a .ts file's own lines).
  let stack = typeof err.stack === "string" ? native.mapStack(err.stack) : "";
  if (stack && !stack.startsWith(head) && !/\n\s+at /.test(stack) && /@|:\d+:\d+/.test(stack)) {
    stack = `${head}\n${stackFrames(stack).join("\n")}`;
  }
  if (!stack) stack = head;
  const name = typeof err.name === "string" && err.name ? err.name : "Error";
  const after = stack[name.length];
  if (ctor && ctor !== name && name.endsWith("Error") && stack.startsWith(name) &&
      (after === undefined || after === ":" || after === "\n")) {
    stack = (ctor.includes(name) ? ctor : `${ctor} [${name}]`) + stack.slice(name.length);
  }
  // Keys already visible in the text (an enumerable `message`, say) are not repeated.
  for (const k of ["name", "message", "stack"]) {
    const i = keys.indexOf(k);
    if (i !== -1 && typeof err[k] === "string" && stack.includes(err[k])) keys.splice(i, 1);
  }
  if (Object.prototype.hasOwnProperty.call(err, "cause") && !keys.includes("cause")) keys.push("cause");
  if (!stack.includes("\n    at ")) stack = `[${stack}]`;
  return ctx.indentation ? stack.replaceAll("\n", `\n${" ".repeat(ctx.indentation)}`) : stack;
}

// Stack frames as node writes them ("    at fn (file:1:2)"), from a V8 or a JavaScriptCore stack.
function stackFrames(stack) {
  if (/^\s+at /m.test(stack)) return stack.split("\n").filter((l) => /^\s+at /.test(l));
  return stack.split("\n").filter(Boolean).map((line) => {
    const at = line.indexOf("@");
    if (at === -1) return `    at ${line}`;
    const [fn, where] = [line.slice(0, at), line.slice(at + 1)];
    if (!fn) return `    at ${where}`;
    return where ? `    at ${fn} (${where === "[native code]" ? "native" : where})` : `    at ${fn}`;
  });
}

// Node's layout: on one line when it fits in 80 columns and nests at most 3 levels; arrays of more
// than 6 short items are set in columns; otherwise one entry per line, indented 2 spaces a level.
function reduceToSingleString(ctx, output, base, braces, arrayLike, depth, value) {
  const entries = output.length;
  if (arrayLike && entries > 6) output = groupArrayElements(ctx, output, value);
  if (ctx.currentDepth - depth < ctx.compact && entries === output.length) {
    const start = output.length + ctx.indentation + braces[0].length + base.length + 10;
    if (fitsOnOneLine(ctx, output, start, base)) {
      const joined = output.join(", ");
      if (!joined.includes("\n")) return `${base ? `${base} ` : ""}${braces[0]} ${joined} ${braces[1]}`;
    }
  }
  const indent = `\n${" ".repeat(ctx.indentation)}`;
  return `${base ? `${base} ` : ""}${braces[0]}${indent}  ${output.join(`,${indent}  `)}${indent}${braces[1]}`;
}

function fitsOnOneLine(ctx, output, start, base) {
  let total = output.length + start;
  if (total + output.length > ctx.breakLength) return false;
  for (const entry of output) {
    total += entry.length;
    if (total > ctx.breakLength) return false;
  }
  return base === "" || !base.includes("\n");
}

function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  const count = output.length - (output.length > ctx.maxArrayLength ? 1 : 0); // leave out "... more items"
  const lengths = output.slice(0, count).map((s) => s.length);
  for (const len of lengths) {
    totalLength += len + 2; // ", "
    maxLength = Math.max(maxLength, len);
  }
  const actualMax = maxLength + 2;
  if (actualMax * 3 + ctx.indentation >= ctx.breakLength || (totalLength / actualMax <= 5 && maxLength > 6)) {
    return output;
  }
  // Aim for a roughly square block, characters being about 2.5 times as high as wide.
  const biasedMax = Math.max(actualMax - 3 - Math.sqrt(actualMax - totalLength / output.length), 1);
  const columns = Math.min(
    Math.round(Math.sqrt(2.5 * biasedMax * count) / biasedMax),
    Math.floor((ctx.breakLength - ctx.indentation) / actualMax),
    ctx.compact * 4,
    15,
  );
  if (columns <= 1) return output;
  const widths = [];
  for (let c = 0; c < columns; c++) {
    let width = 0;
    for (let j = c; j < count; j += columns) width = Math.max(width, lengths[j]);
    widths.push(width + 2);
  }
  // Numbers are right-aligned, everything else left-aligned.
  let numeric = true;
  for (let i = 0; i < output.length && numeric; i++) numeric = typeof value[i] === "number" || typeof value[i] === "bigint";
  const rows = [];
  for (let i = 0; i < count; i += columns) {
    const last = Math.min(i + columns, count) - 1;
    let row = "";
    for (let j = i; j < last; j++) {
      row += numeric ? `${output[j]}, `.padStart(widths[j - i]) : `${output[j]}, `.padEnd(widths[j - i]);
    }
    row += numeric ? output[last].padStart(widths[last - i] - 2) : output[last];
    rows.push(row);
  }
  if (count < output.length) rows.push(output[count]);
  return rows;
}

// ---- util.format ------------------------------------------------------------------------------

const isNative = (fn) => /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(fn));

function formatSubstitution(code, arg) {
  switch (code) {
    case "s":
      if (typeof arg === "number") return formatNumber(arg);
      if (typeof arg === "bigint") return `${arg}n`;
      if (typeof arg !== "object" || arg === null || (typeof arg.toString === "function" && !isNative(arg.toString))) {
        return String(arg);
      }
      return inspect(arg, { depth: 0 });
    case "d":
    case "i":
    case "f":
      if (typeof arg === "bigint") return code === "f" ? formatNumber(Number(arg)) : `${arg}n`;
      if (typeof arg === "symbol") return "NaN";
      if (code === "d") return formatNumber(Number(arg));
      return formatNumber(code === "i" ? parseInt(arg) : parseFloat(arg));
    case "j":
      try { return JSON.stringify(arg); } catch (e) {
        if (e instanceof TypeError && /circular|cyclic/i.test(e.message)) return "[Circular]";
        throw e;
      }
    case "o": return inspect(arg, { depth: 4 });
    case "O": return inspect(arg);
    case "c": return ""; // CSS, meaningless in a terminal
    default: return undefined;
  }
}

function format(...args) {
  const first = args[0];
  let a = 0;
  let str = "";
  let join = "";
  if (typeof first === "string") {
    if (args.length === 1) return first;
    let last = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first[i] !== "%") continue;
      const code = first[++i];
      if (code === "%") {
        str += first.slice(last, i);
        last = i + 1;
      } else if (a + 1 < args.length) {
        const text = formatSubstitution(code, args[a + 1]);
        if (text === undefined) continue;
        a++;
        str += first.slice(last, i - 1) + text;
        last = i + 1;
      }
    }
    if (last !== 0) {
      a++;
      join = " ";
      str += first.slice(last);
    }
  }
  for (; a < args.length; a++) {
    str += join + (typeof args[a] === "string" ? args[a] : inspect(args[a]));
    join = " ";
  }
  return str;
}

// ---- console ----------------------------------------------------------------------------------

let groupIndent = "";
const counts = new Map();
const timers = new Map();

function write(fd, text) {
  if (groupIndent) text = groupIndent + text.replaceAll("\n", `\n${groupIndent}`);
  native.print(fd, `${text}\n`);
}

function elapsed(label) {
  const ms = native.now() - timers.get(label);
  return `${label}: ${ms >= 1000 ? `${(ms / 1000).toFixed(3)}s` : `${ms.toFixed(3)}ms`}`;
}

function table(data, columns) {
  if (data === null || typeof data !== "object") return console.log(data);
  const cell = (v) => (v === undefined ? "" : inspect(v, { depth: 0, breakLength: Infinity, maxArrayLength: 3 }));
  const rows = data instanceof Map ? [...data] : data instanceof Set ? [...data].map((v, i) => [i, v])
    : Object.keys(data).map((k) => [k, data[k]]);
  const header = ["(index)"];
  let hasValues = false;
  for (const [, row] of rows) {
    if (row !== null && typeof row === "object") {
      for (const k of columns ?? Object.keys(row)) if (!header.includes(k)) header.push(k);
    } else hasValues = true;
  }
  if (hasValues) header.push("Values");
  const lines = rows.map(([index, row]) => header.map((k, i) => {
    if (i === 0) return String(index);
    if (row !== null && typeof row === "object") return k === "Values" && hasValues ? "" : cell(row[k]);
    return k === "Values" ? cell(row) : "";
  }));
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)) + 2);
  const rule = (l, m, r) => l + widths.map((w) => "─".repeat(w)).join(m) + r;
  const line = (cells) => `│${cells.map((c, i) => ` ${c.padEnd(widths[i] - 1)}`).join("│")}│`;
  write(1, [rule("┌", "┬", "┐"), line(header), rule("├", "┼", "┤"), ...lines.map(line), rule("└", "┴", "┘")].join("\n"));
}

const console = {
  log: (...args) => write(1, format(...args)),
  info: (...args) => write(1, format(...args)),
  debug: (...args) => write(1, format(...args)),
  warn: (...args) => write(2, format(...args)),
  error: (...args) => write(2, format(...args)),
  trace: (...args) => {
    const frames = stackFrames(new Error().stack ?? "").slice(1); // drop console.trace itself
    write(2, [`Trace${args.length ? `: ${format(...args)}` : ""}`, ...frames].join("\n"));
  },
  dir: (value, options) => write(1, inspect(value, options)),
  assert: (condition, ...args) => {
    if (!condition) write(2, `Assertion failed${args.length ? `: ${format(...args)}` : ""}`);
  },
  count: (label = "default") => {
    counts.set(`${label}`, (counts.get(`${label}`) ?? 0) + 1);
    write(1, `${label}: ${counts.get(`${label}`)}`);
  },
  countReset: (label = "default") => void counts.delete(`${label}`),
  time: (label = "default") => {
    if (timers.has(`${label}`)) write(2, `Warning: Label '${label}' already exists for console.time()`);
    else timers.set(`${label}`, native.now());
  },
  timeLog: (label = "default", ...data) => {
    if (!timers.has(`${label}`)) return write(2, `Warning: No such label '${label}' for console.timeLog()`);
    write(1, [elapsed(`${label}`), ...data.map((d) => (typeof d === "string" ? d : inspect(d)))].join(" "));
  },
  timeEnd: (label = "default") => {
    if (!timers.has(`${label}`)) return write(2, `Warning: No such label '${label}' for console.timeEnd()`);
    write(1, elapsed(`${label}`));
    timers.delete(`${label}`);
  },
  group: (...label) => {
    if (label.length) write(1, format(...label));
    groupIndent += "  ";
  },
  groupEnd: () => { groupIndent = groupIndent.slice(2); },
  table,
};
console.groupCollapsed = console.group;

const install = (name, value) =>
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
install("console", console);
install("__hybridInspect", inspect);

// An uncaught exception, for the host's report (ScriptError), as node prints it: with
// util.inspect, 5 levels deep and without custom inspect functions. An error: the own properties
// inspect writes after its stack (` {\n  code: 'E_DENIED'\n}`, or "" when none), the host writing
// the name, message and mapped stack itself. Anything else: the value, a string as it is.
const UNCAUGHT = { depth: 5, customInspect: false };
native.describeThrown = function describeThrown(value) {
  if (typeof value === "string") return { value };
  if (value === null || typeof value !== "object" || !(value instanceof Error || objectTag(value) === "Error")) {
    return { value: inspect(value, UNCAUGHT) };
  }
  const keys = ownKeys(value).filter((k) => !(["name", "message", "stack"].includes(k) && typeof value[k] === "string"));
  if (Object.prototype.hasOwnProperty.call(value, "cause") && !keys.includes("cause")) keys.push("cause");
  if (keys.length === 0) return { properties: "" };
  // As formatObject lays out an error's keys: one a line, since the stack before them has several.
  const ctx = { ...DEFAULTS, ...UNCAUGHT, seen: [value], circular: null, indentation: 0, currentDepth: 1 };
  const entries = keys.map((key) => formatProperty(ctx, value, key, 1, false));
  return { properties: ` {\n  ${entries.join(",\n  ")}\n}` };
};
