"use strict";
// URL and URLSearchParams, as the WHATWG URL Standard defines them: the basic URL parser's state
// machine, host parsing (domains through UTS #46 ToASCII, IPv4 in its number forms, IPv6), the
// percent-encode sets, the URL serializer, the setters as state overrides, and the
// application/x-www-form-urlencoded parser and serializer behind URLSearchParams.
//
// How it stays fast (JavaScriptCore's JIT does the rest; `Benchmarks/web/url.js` measures it):
// - The common URL (http(s), ws(s) or ftp in lowercase, a plain lowercase host or an IPv4 address
//   as serialized, nothing to percent-encode, no dot segment) is parsed in one pass
//   (parseCommonURL) and is its own href.
// - Everything else runs the spec's state machine, except that a state that only gathers code
//   points into its buffer (authority with host, port, file host, the path, the opaque path, the
//   query, the fragment) scans ahead to its delimiter in one loop and takes the run as one slice of
//   the input, percent-encoding it only when some code point needs that. The states that scan are
//   small functions of their own, which the JIT's top tier compiles quickly.
// - A URL's path is kept serialized ("/a/b", or the opaque path itself), which makes shortening it
//   a slice and serializing it free; href is kept once made until a setter changes the URL, and a
//   parse that kept the input as it was takes the input as its href without serializing.
// - The last base URL parsed is kept parsed, and the ASCII form of the last few hundred domains
//   that needed UTS #46: only those cross to native code (native.domainToASCII: ICU).
// - Strings are compared by length where they may be ropes, and nothing reads a slice's text.

const { requireArguments, enumerable, toStringTag, pairIterator } = internals.get("webidl");

const domainToASCIINative = native.domainToASCII;

const EOF = -1;

// ---- The percent-encode sets --------------------------------------------------------------------
// A set is a table of what each ASCII code point becomes: null when it stays as it is. Code points
// past U+007E are in every set.

const HEX = [];
for (let byte = 0; byte < 256; byte++) HEX.push("%" + (byte < 16 ? "0" : "") + byte.toString(16).toUpperCase());

function encodeSet(base, extra) {
  const table = base === null ? new Array(128).fill(null) : base.slice();
  for (const c of extra) table[c] = HEX[c];
  return table;
}

function codes(text) {
  return Array.from(text, (c) => c.charCodeAt(0));
}

const C0_CONTROL_SET = encodeSet(null, [...Array.from({ length: 0x20 }, (_, i) => i), 0x7f]);
const FRAGMENT_SET = encodeSet(C0_CONTROL_SET, codes(" \"<>`"));
const QUERY_SET = encodeSet(C0_CONTROL_SET, codes(" \"#<>"));
const SPECIAL_QUERY_SET = encodeSet(QUERY_SET, codes("'"));
const PATH_SET = encodeSet(QUERY_SET, codes("?`{}"));
const USERINFO_SET = encodeSet(PATH_SET, codes("/:;=@[\\]^|"));
const COMPONENT_SET = encodeSet(USERINFO_SET, codes("$%&+,"));
// application/x-www-form-urlencoded, whose serializer writes a space as "+".
const FORM_SET = encodeSet(COMPONENT_SET, codes("!'()~"));
FORM_SET[0x20] = "+";

// Set by percentEncode when it meets an ASCII tab or newline (basicURLParse says why).
let tabOrNewline = false;
// Cleared by whatever in a parse makes the serialization differ from the input: percentEncode
// when it encodes, a host that is not the input's own text, a dropped port, a relative reference,
// ... When a parse ends with it still set, the URL serializes to its input (basicURLParse).
let verbatim = false;

// UTF-8 percent-encodes input[start, end) with `set`: the input itself, or a slice of it, when no
// code point needs encoding.
function percentEncode(input, start, end, set) {
  let output = "";
  let run = start;
  for (let i = start; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c < 0x80) {
      const replacement = set[c];
      if (replacement === null) continue;
      if (c <= 0x0d && (c === 0x09 || c === 0x0a || c === 0x0d)) tabOrNewline = true;
      verbatim = false;
      output += input.slice(run, i) + replacement;
    } else {
      verbatim = false;
      output += input.slice(run, i);
      if (c < 0x800) {
        output += HEX[0xc0 | (c >> 6)] + HEX[0x80 | (c & 0x3f)];
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < end ? input.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const point = ((c - 0xd800) << 10) + (next - 0xdc00) + 0x10000;
          output += HEX[0xf0 | (point >> 18)] + HEX[0x80 | ((point >> 12) & 0x3f)] + HEX[0x80 | ((point >> 6) & 0x3f)] + HEX[0x80 | (point & 0x3f)];
          i++;
        } else {
          // Inputs are scalar value strings (USVString); a lone surrogate would be U+FFFD.
          output += "%EF%BF%BD";
        }
      } else {
        output += HEX[0xe0 | (c >> 12)] + HEX[0x80 | ((c >> 6) & 0x3f)] + HEX[0x80 | (c & 0x3f)];
      }
    }
    run = i + 1;
  }
  if (run === start) return start === 0 && end === input.length ? input : input.slice(start, end);
  return output + input.slice(run, end);
}

function hexValue(c) {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

// "Percent-decode" the UTF-8 encoding of `input`, then "UTF-8 decode without BOM" the bytes.
function percentDecode(input) {
  const bytes = [];
  const length = input.length;
  for (let i = 0; i < length; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x25 && i + 2 < length) {
      const high = hexValue(input.charCodeAt(i + 1));
      const low = hexValue(input.charCodeAt(i + 2));
      if (high >= 0 && low >= 0) {
        bytes.push(high * 16 + low);
        i += 2;
        continue;
      }
    }
    if (c < 0x80) {
      bytes.push(c);
    } else if (c < 0x800) {
      bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    } else {
      let point = c;
      const next = i + 1 < length ? input.charCodeAt(i + 1) : 0;
      if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        point = ((c - 0xd800) << 10) + (next - 0xdc00) + 0x10000;
        i++;
      } else if (c >= 0xd800 && c <= 0xdfff) {
        point = 0xfffd;
      }
      if (point < 0x10000) bytes.push(0xe0 | (point >> 12), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f));
      else bytes.push(0xf0 | (point >> 18), 0x80 | ((point >> 12) & 0x3f), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f));
    }
  }
  return utf8Decode(bytes);
}

// The Encoding Standard's UTF-8 decoder, each maximal invalid subpart becoming one U+FFFD.
function utf8Decode(bytes) {
  let output = "";
  let units = [];
  let point = 0;
  let needed = 0;
  let seen = 0;
  let lower = 0x80;
  let upper = 0xbf;
  const emit = (value) => {
    units.push(value);
    if (units.length >= 4096) {
      output += String.fromCodePoint(...units);
      units = [];
    }
  };
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (needed === 0) {
      if (byte <= 0x7f) emit(byte);
      else if (byte >= 0xc2 && byte <= 0xdf) { needed = 1; point = byte & 0x1f; }
      else if (byte >= 0xe0 && byte <= 0xef) {
        if (byte === 0xe0) lower = 0xa0;
        if (byte === 0xed) upper = 0x9f;
        needed = 2;
        point = byte & 0xf;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        if (byte === 0xf0) lower = 0x90;
        if (byte === 0xf4) upper = 0x8f;
        needed = 3;
        point = byte & 0x7;
      } else emit(0xfffd);
      continue;
    }
    if (byte < lower || byte > upper) {
      point = needed = seen = 0;
      lower = 0x80;
      upper = 0xbf;
      emit(0xfffd);
      i--;
      continue;
    }
    lower = 0x80;
    upper = 0xbf;
    point = (point << 6) | (byte & 0x3f);
    if (++seen === needed) {
      emit(point);
      point = needed = seen = 0;
    }
  }
  if (needed !== 0) emit(0xfffd);
  return units.length === 0 ? output : output + String.fromCodePoint(...units);
}

// ---- Schemes and records --------------------------------------------------------------------------

// The special scheme input[start, end) spells in any case, as a literal (a slice would be copied
// the first time it is compared); null when it spells none.
function specialSchemeAt(input, start, end) {
  const c0 = input.charCodeAt(start) | 0x20;
  const c1 = input.charCodeAt(start + 1) | 0x20;
  switch (end - start) {
    case 2:
      return c0 === 0x77 && c1 === 0x73 ? "ws" : null;
    case 3: {
      const c2 = input.charCodeAt(start + 2) | 0x20;
      if (c0 === 0x77 && c1 === 0x73 && c2 === 0x73) return "wss";
      return c0 === 0x66 && c1 === 0x74 && c2 === 0x70 ? "ftp" : null;
    }
    case 4: {
      const c2 = input.charCodeAt(start + 2) | 0x20;
      const c3 = input.charCodeAt(start + 3) | 0x20;
      if (c0 === 0x68 && c1 === 0x74 && c2 === 0x74 && c3 === 0x70) return "http";
      return c0 === 0x66 && c1 === 0x69 && c2 === 0x6c && c3 === 0x65 ? "file" : null;
    }
    case 5:
      return c0 === 0x68 && c1 === 0x74 && (input.charCodeAt(start + 2) | 0x20) === 0x74 && (input.charCodeAt(start + 3) | 0x20) === 0x70 &&
        (input.charCodeAt(start + 4) | 0x20) === 0x73 ? "https" : null;
    default:
      return null;
  }
}

// A special scheme's default port (null for "file"); undefined for a scheme that is not special.
function defaultPort(scheme) {
  switch (scheme) {
    case "http": return 80;
    case "https": return 443;
    case "ws": return 80;
    case "wss": return 443;
    case "ftp": return 21;
    case "file": return null;
    default: return undefined;
  }
}

// A URL record. `path` is the path serialized: "/" and the segment for each segment (so "" is the
// empty path and "/" the path of one empty segment), or the opaque path itself when `opaque`.
class URLRecord {
  constructor() {
    this.scheme = "";
    this.special = false;
    this.username = "";
    this.password = "";
    this.host = null; // the host serialized: a domain, "[v6]", an IPv4 address, an opaque host or ""
    this.port = null;
    this.path = "";
    this.opaque = false;
    this.query = null;
    this.fragment = null;
    this.href = null; // the serialization, once made, until something changes
    this.queryObject = null; // the URL object's URLSearchParams, made on first use of searchParams
  }
}

function copyRecord(from, to) {
  to.scheme = from.scheme;
  to.special = from.special;
  to.username = from.username;
  to.password = from.password;
  to.host = from.host;
  to.port = from.port;
  to.path = from.path;
  to.opaque = from.opaque;
  to.query = from.query;
  to.fragment = from.fragment;
  to.href = from.href;
}

// Whether the URL's scheme is "file" (a special scheme is one of the literals above, so comparing it
// never copies a slice).
function isFile(url) {
  return url.special && url.scheme === "file";
}

function isAlpha(c) {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isDigit(c) {
  return c >= 0x30 && c <= 0x39;
}

// "A Windows drive letter": an ASCII alpha and ":" or "|", here at input[at] and input[at + 1].
function isWindowsDriveLetter(input, at) {
  const c = input.charCodeAt(at + 1);
  return isAlpha(input.charCodeAt(at)) && (c === 0x3a || c === 0x7c);
}

// "Starts with a Windows drive letter": the code points from `at` to `end`.
function startsWithWindowsDriveLetter(input, at, end) {
  if (end - at < 2 || !isWindowsDriveLetter(input, at)) return false;
  if (end - at === 2) return true;
  const c = input.charCodeAt(at + 2);
  return c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23;
}

// The path's first segment is a normalized Windows drive letter ("/C:", "/C:/...").
function pathStartsWithDriveLetter(path) {
  return path.length >= 3 && path.charCodeAt(0) === 0x2f && isAlpha(path.charCodeAt(1)) && path.charCodeAt(2) === 0x3a &&
    (path.length === 3 || path.charCodeAt(3) === 0x2f);
}

// "Shorten a URL's path", on a serialized path: its last segment goes, unless it is a file URL's
// only segment and a normalized Windows drive letter.
function shortenedPath(path, file) {
  if (file && path.length === 3 && pathStartsWithDriveLetter(path)) return path;
  let last = path.length - 1;
  while (last >= 0 && path.charCodeAt(last) !== 0x2f) last--;
  return last === -1 ? path : path.slice(0, last);
}

function shortenPath(url) {
  url.path = shortenedPath(url.path, isFile(url));
}

function isNormalizedDriveLetter(segment) {
  return segment.length === 2 && isAlpha(segment.charCodeAt(0)) && segment.charCodeAt(1) === 0x3a;
}

// Whether input[start, end) is a single-dot path segment ("." or "%2e", any case): 1, a
// double-dot one (two of those): 2, or neither: 0.
function dotSegment(input, start, end) {
  if (end === start || end - start > 6) return 0;
  let dots = 0;
  let i = start;
  while (i < end) {
    const c = input.charCodeAt(i);
    if (c === 0x2e) {
      i++;
    } else if (c === 0x25 && i + 3 <= end && input.charCodeAt(i + 1) === 0x32 && (input.charCodeAt(i + 2) | 0x20) === 0x65) {
      i += 3;
    } else {
      return 0;
    }
    if (++dots === 3) return 0;
  }
  return dots;
}

function potentiallyStripTrailingSpaces(url) {
  if (!url.opaque || url.fragment !== null || url.query !== null) return;
  let end = url.path.length;
  while (end > 0 && url.path.charCodeAt(end - 1) === 0x20) end--;
  url.path = url.path.slice(0, end);
}

// ---- Hosts ---------------------------------------------------------------------------------------

// Forbidden host code points, as a table of the ASCII range; forbidden domain code points add the
// C0 controls, "%" and U+007F.
const FORBIDDEN_HOST = new Uint8Array(128);
for (const c of codes("\0\t\n\r #/:<>?@[\\]^|")) FORBIDDEN_HOST[c] = 1;
const FORBIDDEN_DOMAIN = FORBIDDEN_HOST.slice();
for (let c = 0; c < 0x20; c++) FORBIDDEN_DOMAIN[c] = 1;
FORBIDDEN_DOMAIN[0x25] = 1;
FORBIDDEN_DOMAIN[0x7f] = 1;

// The host parser, on input[start, end): the host serialized, or null (failure).
function parseHost(input, start, end, isOpaque) {
  if (input.charCodeAt(start) === 0x5b) {
    if (input.charCodeAt(end - 1) !== 0x5d || end - start < 2) return null;
    verbatim = false;
    const address = parseIPv6(input, start + 1, end - 1);
    return address === null ? null : "[" + serializeIPv6(address) + "]";
  }
  if (isOpaque) return parseOpaqueHost(input, start, end);
  // One pass over the input (reading a slice of it would copy it first): an ASCII domain with no
  // "%" and no "xn--" label is what UTS #46 ToASCII would make of it once lowercased.
  let upper = false;
  let forbidden = false;
  let lastDot = start - 1;
  let previousDot = start - 1;
  for (let i = start; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c >= 0x61) {
      if (c >= 0x80) return parseDomain(input.slice(start, end));
      if (c > 0x7a && FORBIDDEN_DOMAIN[c] === 1) forbidden = true;
      else if (c === 0x78 && i + 3 < end && (i === start || input.charCodeAt(i - 1) === 0x2e) && (input.charCodeAt(i + 1) | 0x20) === 0x6e &&
        input.charCodeAt(i + 2) === 0x2d && input.charCodeAt(i + 3) === 0x2d) return parseDomain(input.slice(start, end));
    } else if (c >= 0x41 && c <= 0x5a) {
      upper = true;
      if (c === 0x58 && i + 3 < end && (i === start || input.charCodeAt(i - 1) === 0x2e) && (input.charCodeAt(i + 1) | 0x20) === 0x6e &&
        input.charCodeAt(i + 2) === 0x2d && input.charCodeAt(i + 3) === 0x2d) return parseDomain(input.slice(start, end));
    } else if (c === 0x2e) {
      previousDot = lastDot;
      lastDot = i;
    } else if (c === 0x25) {
      return parseDomain(input.slice(start, end));
    } else if (FORBIDDEN_DOMAIN[c] === 1) {
      forbidden = true;
    }
  }
  if (forbidden) return null;
  if (upper) verbatim = false;
  const host = upper ? input.slice(start, end).toLowerCase() : input.slice(start, end);
  // Ends in a number: its last label, less a trailing ".", is digits or "0x" and hex digits.
  const labelEnd = lastDot === end - 1 ? lastDot : end;
  const labelStart = (lastDot === end - 1 ? previousDot : lastDot) + 1;
  if (labelStart < labelEnd && isDigit(input.charCodeAt(labelStart)) && isIPv4NumberLike(input, labelStart, labelEnd)) {
    verbatim = false;
    return parseIPv4(host);
  }
  return host;
}

// A domain that needs percent-decoding or UTS #46 processing.
function parseDomain(domain) {
  verbatim = false;
  if (domain.indexOf("%") !== -1) domain = percentDecode(domain);
  const ascii = domainToASCII(domain);
  if (ascii === null) return null;
  return endsInANumber(ascii) ? parseIPv4(ascii) : ascii;
}

// UTS #46 ToASCII (native.domainToASCII: ICU), remembered for the last few hundred domains: a call
// costs about a microsecond, and an app meets the same few internationalized hosts again and again.
const asciiDomains = new Map();

function unicodeToASCII(domain) {
  let ascii = asciiDomains.get(domain);
  if (ascii === undefined) {
    ascii = domainToASCIINative(domain);
    if (asciiDomains.size === 256) asciiDomains.clear();
    asciiDomains.set(domain, ascii);
  }
  return ascii;
}

// "Domain to ASCII" with beStrict false. An ASCII domain with no "xn--" label comes out of UTS #46
// ToASCII lowercased, so only the others go to ICU.
function domainToASCII(domain) {
  const length = domain.length;
  let upper = false;
  let ascii = true;
  let forbidden = false;
  for (let i = 0; i < length; i++) {
    const c = domain.charCodeAt(i);
    if (c >= 0x80) {
      ascii = false;
      break;
    }
    if (c >= 0x41 && c <= 0x5a) upper = true;
    else if (FORBIDDEN_DOMAIN[c] === 1) forbidden = true;
  }
  let result = ascii && upper ? domain.toLowerCase() : domain;
  if (!ascii || result.startsWith("xn--") || result.includes(".xn--")) {
    result = unicodeToASCII(domain);
    if (result === null) return null;
    forbidden = false;
    for (let i = 0; i < result.length; i++) {
      const c = result.charCodeAt(i);
      if (c >= 0x80 || FORBIDDEN_DOMAIN[c] === 1) forbidden = true;
    }
  }
  if (result === "" || forbidden) return null;
  return result;
}

function parseOpaqueHost(input, start, end) {
  for (let i = start; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c < 0x80 && FORBIDDEN_HOST[c] === 1) return null;
  }
  return percentEncode(input, start, end, C0_CONTROL_SET);
}

// "Ends in a number": the last label (before a trailing ".") is all digits, or "0x" and hex digits.
function endsInANumber(domain) {
  let end = domain.length;
  if (domain.charCodeAt(end - 1) === 0x2e) end--;
  const start = domain.lastIndexOf(".", end - 1) + 1;
  return start < end && isIPv4NumberLike(domain, start, end);
}

// text[start, end) is digits, or "0x" and hex digits: what the IPv4 number parser does not refuse.
function isIPv4NumberLike(text, start, end) {
  if (end - start >= 2 && text.charCodeAt(start) === 0x30 && (text.charCodeAt(start + 1) | 0x20) === 0x78) {
    for (let i = start + 2; i < end; i++) if (hexValue(text.charCodeAt(i)) < 0) return false;
    return true;
  }
  for (let i = start; i < end; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

// The IPv4 number parser on text[start, end): the number, or -1 (failure).
function parseIPv4Number(text, start, end) {
  if (start === end) return -1;
  let radix = 10;
  let i = start;
  if (end - start >= 2 && text.charCodeAt(start) === 0x30) {
    if ((text.charCodeAt(start + 1) | 0x20) === 0x78) {
      radix = 16;
      i = start + 2;
    } else {
      radix = 8;
      i = start + 1;
    }
  }
  let value = 0;
  for (; i < end; i++) {
    const digit = hexValue(text.charCodeAt(i));
    if (digit < 0 || digit >= radix) return -1;
    value = value * radix + digit;
  }
  return value;
}

// The IPv4 parser, serializing what it parses; null on failure.
function parseIPv4(input) {
  let end = input.length;
  // A trailing "." ends the last part, unless the input is only that.
  if (end > 1 && input.charCodeAt(end - 1) === 0x2e) end--;
  let address = 0;
  let count = 0;
  let start = 0;
  for (;;) {
    let dot = start;
    while (dot < end && input.charCodeAt(dot) !== 0x2e) dot++;
    if (count === 4) return null;
    const number = parseIPv4Number(input, start, dot);
    if (number < 0) return null;
    if (dot === end) {
      // The last number fills the pieces the others left.
      if (number >= 256 ** (4 - count)) return null;
      address += number;
      break;
    }
    if (number > 255) return null;
    address += number * 256 ** (3 - count);
    count++;
    start = dot + 1;
  }
  return `${address >>> 24}.${(address >>> 16) & 255}.${(address >>> 8) & 255}.${address & 255}`;
}

// The IPv6 parser on input[start, end): eight 16-bit pieces, or null.
function parseIPv6(input, start, end) {
  const address = new Uint16Array(8);
  let pieceIndex = 0;
  let compress = -1;
  let p = start;
  let c = p < end ? input.charCodeAt(p) : EOF;
  if (c === 0x3a) {
    if (p + 1 >= end || input.charCodeAt(p + 1) !== 0x3a) return null;
    p += 2;
    c = p < end ? input.charCodeAt(p) : EOF;
    pieceIndex++;
    compress = pieceIndex;
  }
  while (c !== EOF) {
    if (pieceIndex === 8) return null;
    if (c === 0x3a) {
      if (compress !== -1) return null;
      p++;
      c = p < end ? input.charCodeAt(p) : EOF;
      pieceIndex++;
      compress = pieceIndex;
      continue;
    }
    let value = 0;
    let length = 0;
    while (length < 4 && c !== EOF && hexValue(c) >= 0) {
      value = value * 16 + hexValue(c);
      p++;
      c = p < end ? input.charCodeAt(p) : EOF;
      length++;
    }
    if (c === 0x2e) {
      if (length === 0) return null;
      p -= length;
      c = input.charCodeAt(p);
      if (pieceIndex > 6) return null;
      let numbersSeen = 0;
      while (c !== EOF) {
        let ipv4Piece = -1;
        if (numbersSeen > 0) {
          if (c !== 0x2e || numbersSeen >= 4) return null;
          p++;
          c = p < end ? input.charCodeAt(p) : EOF;
        }
        if (!isDigit(c)) return null;
        while (isDigit(c)) {
          const number = c - 0x30;
          if (ipv4Piece === -1) ipv4Piece = number;
          else if (ipv4Piece === 0) return null;
          else ipv4Piece = ipv4Piece * 10 + number;
          if (ipv4Piece > 255) return null;
          p++;
          c = p < end ? input.charCodeAt(p) : EOF;
        }
        address[pieceIndex] = address[pieceIndex] * 0x100 + ipv4Piece;
        numbersSeen++;
        if (numbersSeen === 2 || numbersSeen === 4) pieceIndex++;
      }
      if (numbersSeen !== 4) return null;
      break;
    } else if (c === 0x3a) {
      p++;
      c = p < end ? input.charCodeAt(p) : EOF;
      if (c === EOF) return null;
    } else if (c !== EOF) {
      return null;
    }
    address[pieceIndex] = value;
    pieceIndex++;
  }
  if (compress !== -1) {
    let swaps = pieceIndex - compress;
    pieceIndex = 7;
    while (pieceIndex !== 0 && swaps > 0) {
      const other = compress + swaps - 1;
      const piece = address[pieceIndex];
      address[pieceIndex] = address[other];
      address[other] = piece;
      pieceIndex--;
      swaps--;
    }
  } else if (pieceIndex !== 8) {
    return null;
  }
  return address;
}

// The IPv6 serializer: lowercase hex pieces, the first longest run of two or more zero pieces as "::".
function serializeIPv6(address) {
  let compress = -1;
  let longest = 1;
  for (let i = 0; i < 8;) {
    if (address[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && address[j] === 0) j++;
    if (j - i > longest) {
      longest = j - i;
      compress = i;
    }
    i = j;
  }
  let output = "";
  let ignoreZero = false;
  for (let i = 0; i < 8; i++) {
    if (ignoreZero && address[i] === 0) continue;
    ignoreZero = false;
    if (compress === i) {
      output += i === 0 ? "::" : ":";
      ignoreZero = true;
      continue;
    }
    output += address[i].toString(16);
    if (i !== 7) output += ":";
  }
  return output;
}

// ---- The basic URL parser ------------------------------------------------------------------------

const SCHEME_START = 1;
const SCHEME = 2;
const NO_SCHEME = 3;
const SPECIAL_RELATIVE_OR_AUTHORITY = 4;
const PATH_OR_AUTHORITY = 5;
const RELATIVE = 6;
const RELATIVE_SLASH = 7;
const SPECIAL_AUTHORITY_SLASHES = 8;
const SPECIAL_AUTHORITY_IGNORE_SLASHES = 9;
const AUTHORITY = 10;
const HOST = 11;
const HOSTNAME = 12;
const PORT = 13;
const FILE = 14;
const FILE_SLASH = 15;
const FILE_HOST = 16;
const PATH_START = 17;
const PATH = 18;
const OPAQUE_PATH = 19;
const QUERY = 20;
const FRAGMENT = 21;

const TAB_OR_NEWLINE = /[\t\n\r]/g;

// The states that gather a run of the input are functions of their own, which take the pointer and
// give back the pointer the state machine goes on from (or FAILURE, or FINISHED when a state
// override's parse is done), leaving the state to go on in here. Small functions reach the
// optimizing tiers sooner than one large one, and one that bails out costs only its own recompile.
const FAILURE = -10;
const FINISHED = -11;
let nextState = 0;

// The basic URL parser. Without `url`, parses `input` against `base` (a record or null) into a new
// record, or returns null (failure). With `url` and `stateOverride`, changes `url` in place, as the
// setters do; what it returns then is of no use.
function basicURLParse(input, base, url, stateOverride) {
  if (url === null) {
    const common = parseCommonURL(input);
    if (common !== null) return common;
    let start = 0;
    let end = input.length;
    while (start < end && input.charCodeAt(start) <= 0x20) start++;
    while (end > start && input.charCodeAt(end - 1) <= 0x20) end--;
    if (start !== 0 || end !== input.length) input = input.slice(start, end);
    // ASCII tabs and newlines are removed from the input first. Rather than look for them in
    // every input, the parse goes ahead and notices them where they would land: every code point
    // the parser keeps passes through percentEncode (which sets tabOrNewline for them) or a host
    // parser that refuses them, or stops a scan whose state then fails or hands it on to one of
    // those. So a parse that met one, or that failed with one in its input, runs again without them.
    tabOrNewline = false;
    verbatim = true;
    if (base === null) base = NO_BASE;
    let url = runStateMachine(input, base, new URLRecord(), 0);
    if (tabOrNewline || (url === null && hasTabOrNewline(input))) {
      // Lone surrogates became U+FFFD before the tabs went (the input is a USVString): removing a
      // tab must not join two halves into a pair.
      input = input.toWellFormed().replace(TAB_OR_NEWLINE, "");
      verbatim = true;
      url = runStateMachine(input, base, new URLRecord(), 0);
    }
    // A URL that serializes to its input has that as its href already.
    if (verbatim && url !== null && (url.host !== null || url.opaque || url.path.length < 2 || url.path.charCodeAt(1) !== 0x2f)) url.href = input;
    return url;
  }
  return runStateMachine(hasTabOrNewline(input) ? input.replace(TAB_OR_NEWLINE, "") : input, base ?? NO_BASE, url, stateOverride);
}

// The common URL in one pass, as the state machine would parse it: an http, https, ws, wss or ftp
// scheme in lowercase, "//", a host of lowercase ASCII letters, digits, "-", "_" and "." that has
// no "xn--" label and does not end in a number, perhaps a port that is not the scheme's default,
// then a path, query and fragment with nothing to percent-encode, no "\\" and no dot segment.
// Such a URL serializes to its input (with a "/" for an empty path). Anything else: null, and the
// state machine parses it.
function parseCommonURL(input) {
  const length = input.length;
  let i = 0;
  let c = EOF;
  while (i < length) {
    c = input.charCodeAt(i);
    if (c < 0x61 || c > 0x7a || i === 5) break;
    i++;
  }
  if (c !== 0x3a || i < 2) return null;
  const scheme = specialSchemeAt(input, 0, i);
  if (scheme === null || scheme === "file") return null;
  if (i + 3 >= length || input.charCodeAt(i + 1) !== 0x2f || input.charCodeAt(i + 2) !== 0x2f) return null;
  // The host.
  const hostStart = i + 3;
  let lastDot = hostStart - 1;
  let previousDot = hostStart - 1;
  for (i = hostStart; i < length; i++) {
    c = input.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || isDigit(c) || c === 0x2d || c === 0x5f) {
      if (c === 0x78 && (i === hostStart || input.charCodeAt(i - 1) === 0x2e) && i + 3 < length &&
        input.charCodeAt(i + 1) === 0x6e && input.charCodeAt(i + 2) === 0x2d && input.charCodeAt(i + 3) === 0x2d) return null;
    } else if (c === 0x2e) {
      previousDot = lastDot;
      lastDot = i;
    } else if (c === 0x2f || c === 0x3f || c === 0x23 || c === 0x3a) {
      break;
    } else {
      return null;
    }
  }
  const hostEnd = i;
  if (hostEnd === hostStart) return null;
  const labelStart = (lastDot === hostEnd - 1 ? previousDot : lastDot) + 1;
  if (labelStart < hostEnd && isDigit(input.charCodeAt(labelStart)) && !isSerializedIPv4(input, hostStart, hostEnd)) return null;
  // The port.
  let port = null;
  if (i < length && c === 0x3a) {
    const portStart = ++i;
    let value = 0;
    for (; i < length; i++) {
      c = input.charCodeAt(i);
      if (!isDigit(c)) break;
      value = value * 10 + c - 0x30;
    }
    if (i === portStart || (i - portStart > 1 && input.charCodeAt(portStart) === 0x30) || value > 65535 || value === defaultPort(scheme)) return null;
    if (i < length && c !== 0x2f && c !== 0x3f && c !== 0x23) return null;
    port = value;
  }
  // The path, the query and the fragment.
  const pathStart = i;
  let pathEnd = i;
  if (i < length && c === 0x2f) {
    pathEnd = verbatimPathEnd(input, i + 1, 0);
    if (pathEnd === -1) return null;
  }
  let queryStart = -1;
  let queryEnd = pathEnd;
  if (pathEnd < length && input.charCodeAt(pathEnd) === 0x3f) {
    queryStart = pathEnd + 1;
    queryEnd = unencodedRunEnd(input, queryStart, SPECIAL_QUERY_SET, 0x23);
    if (queryEnd === -1) return null;
  }
  let fragmentStart = -1;
  if (queryEnd < length) {
    fragmentStart = queryEnd + 1;
    if (unencodedRunEnd(input, fragmentStart, FRAGMENT_SET, EOF) === -1) return null;
  }
  const url = new URLRecord();
  url.scheme = scheme;
  url.special = true;
  url.host = input.slice(hostStart, hostEnd);
  url.port = port;
  if (pathEnd === pathStart) {
    url.path = "/";
    url.href = input.slice(0, pathStart) + "/" + input.slice(pathStart);
  } else {
    url.path = input.slice(pathStart, pathEnd);
    url.href = input;
  }
  if (queryStart !== -1) url.query = input.slice(queryStart, queryEnd);
  if (fragmentStart !== -1) url.fragment = input.slice(fragmentStart);
  return url;
}

// input[start, end) is an IPv4 address as the serializer writes it (four decimal numbers of at
// most 255 without leading zeros, joined by "."), which the IPv4 parser gives back unchanged.
function isSerializedIPv4(input, start, end) {
  let parts = 0;
  let i = start;
  while (i < end) {
    const partStart = i;
    let value = 0;
    for (; i < end && isDigit(input.charCodeAt(i)); i++) value = value * 10 + input.charCodeAt(i) - 0x30;
    const digits = i - partStart;
    if (digits === 0 || digits > 3 || value > 255 || (digits > 1 && input.charCodeAt(partStart) === 0x30)) return false;
    parts++;
    if (i === end) break;
    if (input.charCodeAt(i) !== 0x2e || parts === 4) return false;
    i++;
    if (i === end) return false;
  }
  return parts === 4;
}

// Where the run of the input from `start` ends, at `stop` or the end, when nothing in it is in
// `set` or past ASCII; else -1.
function unencodedRunEnd(input, start, set, stop) {
  const length = input.length;
  for (let i = start; i < length; i++) {
    const c = input.charCodeAt(i);
    if (c === stop) return i;
    if (c >= 0x80 || set[c] !== null) return -1;
  }
  return length;
}

function hasTabOrNewline(input) {
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c <= 0x0d && (c === 0x09 || c === 0x0a || c === 0x0d)) return true;
  }
  return false;
}

// No base URL: a record that is never a base, so that `base` is always an object in the state
// machine (one type where the JIT compiles it, rather than an object or null).
const NO_BASE = new URLRecord();

// The state machine, on an input without tabs and newlines (or one whose parse is then redone).
function runStateMachine(input, base, url, stateOverride) {
  const length = input.length;
  let state = stateOverride || SCHEME_START;
  // Where the buffer starts when it holds something on entering the path state (the file host
  // state's Windows drive letter quirk); -1 otherwise.
  let bufferStart = -1;
  let pointer = 0;
  for (;;) {
    const c = pointer < length ? input.charCodeAt(pointer) : EOF;
    switch (state) {
      case SCHEME_START:
        if (isAlpha(c)) {
          state = SCHEME;
          pointer--;
        } else if (!stateOverride) {
          state = NO_SCHEME;
          pointer--;
        } else {
          return null;
        }
        break;

      case SCHEME:
        pointer = schemeState(input, pointer, base, url, stateOverride);
        state = nextState;
        break;

      case NO_SCHEME:
        verbatim = false;
        if (base === NO_BASE || (base.opaque && c !== 0x23)) return null;
        if (base.opaque) {
          url.scheme = base.scheme;
          url.special = base.special;
          url.path = base.path;
          url.opaque = true;
          url.query = base.query;
          url.fragment = "";
          state = FRAGMENT;
        } else {
          state = isFile(base) ? FILE : RELATIVE;
          pointer--;
        }
        break;

      case SPECIAL_RELATIVE_OR_AUTHORITY:
        verbatim = false;
        if (c === 0x2f && pointer + 1 < length && input.charCodeAt(pointer + 1) === 0x2f) {
          state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
          pointer++;
        } else {
          state = RELATIVE;
          pointer--;
        }
        break;

      case PATH_OR_AUTHORITY:
        if (c === 0x2f) {
          state = AUTHORITY;
        } else {
          state = PATH;
          pointer--;
        }
        break;

      case RELATIVE:
        url.scheme = base.scheme;
        url.special = base.special;
        if (c === 0x2f || (url.special && c === 0x5c)) {
          state = RELATIVE_SLASH;
        } else {
          url.username = base.username;
          url.password = base.password;
          url.host = base.host;
          url.port = base.port;
          url.path = base.path;
          url.query = base.query;
          if (c === 0x3f) {
            url.query = "";
            state = QUERY;
          } else if (c === 0x23) {
            url.fragment = "";
            state = FRAGMENT;
          } else if (c !== EOF) {
            url.query = null;
            shortenPath(url);
            state = PATH;
            pointer--;
          }
        }
        break;

      case RELATIVE_SLASH:
        if (url.special && (c === 0x2f || c === 0x5c)) {
          state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
        } else if (c === 0x2f) {
          state = AUTHORITY;
        } else {
          url.username = base.username;
          url.password = base.password;
          url.host = base.host;
          url.port = base.port;
          state = PATH;
          pointer--;
        }
        break;

      case SPECIAL_AUTHORITY_SLASHES:
        verbatim = false;
        state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
        if (c === 0x2f && pointer + 1 < length && input.charCodeAt(pointer + 1) === 0x2f) pointer++;
        else pointer--;
        break;

      case SPECIAL_AUTHORITY_IGNORE_SLASHES:
        if (c !== 0x2f && c !== 0x5c) {
          state = AUTHORITY;
          pointer--;
        }
        break;

      case AUTHORITY:
        pointer = authorityState(input, pointer, url);
        state = nextState;
        break;

      case HOST:
      case HOSTNAME:
        if (stateOverride && isFile(url)) {
          pointer--;
          state = FILE_HOST;
        } else {
          pointer = hostState(input, pointer, url, stateOverride);
          state = nextState;
        }
        break;

      case PORT:
        pointer = portState(input, pointer, url, stateOverride);
        state = nextState;
        break;

      case FILE:
        pointer = fileState(input, pointer, c, base, url);
        state = nextState;
        break;

      case FILE_SLASH:
        if (c === 0x2f || c === 0x5c) {
          state = FILE_HOST;
        } else {
          if (isFile(base)) {
            url.host = base.host;
            if (!startsWithWindowsDriveLetter(input, pointer, length) && pathStartsWithDriveLetter(base.path)) {
              url.path += base.path.slice(0, 3);
            }
          }
          state = PATH;
          pointer--;
        }
        break;

      case FILE_HOST:
        pointer = fileHostState(input, pointer, url, stateOverride);
        state = nextState;
        // The Windows drive letter quirk: the buffer is kept, to be the path's first segment.
        if (state === PATH) bufferStart = pointer - 1;
        break;

      case PATH_START:
        if (url.special) {
          state = PATH;
          if (c === 0x5c) verbatim = false;
          if (c !== 0x2f && c !== 0x5c) pointer--;
        } else if (!stateOverride && c === 0x3f) {
          url.query = "";
          state = QUERY;
        } else if (!stateOverride && c === 0x23) {
          url.fragment = "";
          state = FRAGMENT;
        } else if (c !== EOF) {
          state = PATH;
          if (c !== 0x2f) pointer--;
        } else if (stateOverride && url.host === null) {
          url.path += "/";
        }
        break;

      case PATH:
        pointer = pathState(input, bufferStart === -1 ? pointer : bufferStart, pointer, url, stateOverride);
        bufferStart = -1;
        state = nextState;
        break;

      case OPAQUE_PATH:
        pointer = opaquePathState(input, pointer, url);
        state = nextState;
        break;

      case QUERY:
        pointer = queryState(input, pointer, url, stateOverride);
        state = nextState;
        break;

      case FRAGMENT:
        url.fragment += percentEncode(input, pointer, length, FRAGMENT_SET);
        pointer = length;
        break;
    }
    if (pointer < -1) return pointer === FAILURE ? null : url;
    if (pointer >= length) break;
    pointer++;
  }
  return url;
}

// The scheme state, from the scheme's first code point: on to where its ":" takes the parse.
function schemeState(input, pointer, base, url, stateOverride) {
  const length = input.length;
  let end = pointer;
  let upper = false;
  let d = EOF;
  for (; end < length; end++) {
    d = input.charCodeAt(end);
    if ((d >= 0x61 && d <= 0x7a) || isDigit(d) || d === 0x2b || d === 0x2d || d === 0x2e) continue;
    if (d >= 0x41 && d <= 0x5a) {
      upper = true;
      continue;
    }
    break;
  }
  if (end === length || d !== 0x3a) {
    // No scheme: start over from the first code point in the no scheme state.
    nextState = NO_SCHEME;
    return stateOverride ? FAILURE : -1;
  }
  let scheme = specialSchemeAt(input, pointer, end);
  const isSpecial = scheme !== null;
  if (!isSpecial) {
    scheme = input.slice(pointer, end);
    if (upper) scheme = scheme.toLowerCase();
  }
  if (upper) verbatim = false;
  if (stateOverride) {
    if (url.special !== isSpecial) return FAILURE;
    if ((url.username !== "" || url.password !== "" || url.port !== null) && isSpecial && scheme === "file") return FAILURE;
    if (isFile(url) && url.host === "") return FAILURE;
  }
  url.scheme = scheme;
  url.special = isSpecial;
  if (stateOverride) {
    if (isSpecial && url.port === defaultPort(scheme)) url.port = null;
    return FINISHED;
  }
  if (isSpecial && scheme === "file") {
    verbatim = false;
    nextState = FILE;
  } else if (isSpecial && end + 2 < length && input.charCodeAt(end + 1) === 0x2f && input.charCodeAt(end + 2) === 0x2f) {
    // "//": what the special relative or authority state and the special authority slashes state
    // both do with it, at once: on past every further "/" and "\" to the authority.
    let next = end + 3;
    while (next < length && (input.charCodeAt(next) === 0x2f || input.charCodeAt(next) === 0x5c)) next++;
    if (next !== end + 3) verbatim = false;
    nextState = AUTHORITY;
    return next - 1;
  } else if (isSpecial && base.scheme === scheme) {
    nextState = SPECIAL_RELATIVE_OR_AUTHORITY;
  } else if (isSpecial) {
    nextState = SPECIAL_AUTHORITY_SLASHES;
  } else if (end + 1 < length && input.charCodeAt(end + 1) === 0x2f) {
    nextState = PATH_OR_AUTHORITY;
    return end + 1;
  } else {
    url.path = "";
    url.opaque = true;
    nextState = OPAQUE_PATH;
  }
  return end;
}

// The authority state, whole: what precedes the authority's last "@" is the userinfo (each earlier
// "@" percent-encoded, the first ":" splitting username from password), what follows it the host
// and port, which the host state would find between the same delimiters; so the host is parsed
// here too, and the state machine goes on at the port or the path.
function authorityState(input, pointer, url) {
  const length = input.length;
  const special = url.special;
  let end = pointer;
  let lastAt = -1;
  let colon = -1; // the first ":" after the last "@" and outside brackets
  let insideBrackets = false;
  for (; end < length; end++) {
    const d = input.charCodeAt(end);
    if (d === 0x2f || d === 0x3f || d === 0x23 || (special && d === 0x5c)) break;
    if (d === 0x40) {
      lastAt = end;
      colon = -1;
      insideBrackets = false;
    } else if (d === 0x3a) {
      if (colon === -1 && !insideBrackets) colon = end;
    } else if (d === 0x5b) {
      insideBrackets = true;
    } else if (d === 0x5d) {
      insideBrackets = false;
    }
  }
  let hostStart = pointer;
  if (lastAt !== -1) {
    if (lastAt + 1 === end) return FAILURE;
    const userinfoColon = input.indexOf(":", pointer);
    if (userinfoColon === -1 || userinfoColon > lastAt) {
      url.username += percentEncode(input, pointer, lastAt, USERINFO_SET);
      if (lastAt === pointer) verbatim = false; // "@host" serializes as "host"
    } else {
      url.username += percentEncode(input, pointer, userinfoColon, USERINFO_SET);
      url.password += percentEncode(input, userinfoColon + 1, lastAt, USERINFO_SET);
      if (userinfoColon + 1 === lastAt) verbatim = false; // "user:@host" serializes as "user@host"
    }
    hostStart = lastAt + 1;
  }
  const hostEnd = colon === -1 ? end : colon;
  if (hostEnd === hostStart && (special || colon !== -1)) return FAILURE;
  const host = hostEnd === hostStart ? "" : parseHost(input, hostStart, hostEnd, !special);
  if (host === null) return FAILURE;
  url.host = host;
  if (colon !== -1) {
    nextState = PORT;
    return colon;
  }
  nextState = PATH_START;
  return end - 1;
}

// The host and hostname states, as the host and hostname setters run them (a parse without a
// state override reaches the host through the authority state).
function hostState(input, pointer, url, stateOverride) {
  const length = input.length;
  const special = url.special;
  let end = pointer;
  let insideBrackets = false;
  let d = EOF;
  for (; end < length; end++) {
    d = input.charCodeAt(end);
    if (d === 0x3a && !insideBrackets) break;
    if (d === 0x2f || d === 0x3f || d === 0x23 || (special && d === 0x5c)) break;
    if (d === 0x5b) insideBrackets = true;
    else if (d === 0x5d) insideBrackets = false;
  }
  if (end === length) d = EOF;
  if (d === 0x3a) {
    if (end === pointer) return FAILURE;
    if (stateOverride === HOSTNAME) return FAILURE;
    const host = parseHost(input, pointer, end, !special);
    if (host === null) return FAILURE;
    url.host = host;
    nextState = PORT;
    return end;
  }
  if (end === pointer) {
    if (special) return FAILURE;
    if (stateOverride && (url.username !== "" || url.password !== "" || url.port !== null)) return FAILURE;
  }
  const host = end === pointer ? "" : parseHost(input, pointer, end, !special);
  if (host === null) return FAILURE;
  url.host = host;
  if (stateOverride) return FINISHED;
  nextState = PATH_START;
  return end - 1;
}

function portState(input, pointer, url, stateOverride) {
  const length = input.length;
  let end = pointer;
  while (end < length && isDigit(input.charCodeAt(end))) end++;
  const d = end < length ? input.charCodeAt(end) : EOF;
  if (!(d === EOF || d === 0x2f || d === 0x3f || d === 0x23 || (url.special && d === 0x5c) || stateOverride)) return FAILURE;
  if (end !== pointer) {
    let port = 0;
    for (let i = pointer; i < end; i++) {
      port = port * 10 + input.charCodeAt(i) - 0x30;
      if (port > 65535) return FAILURE;
    }
    url.port = url.special && port === defaultPort(url.scheme) ? null : port;
    if (url.port === null || (end - pointer > 1 && input.charCodeAt(pointer) === 0x30)) verbatim = false;
  } else {
    verbatim = false;
  }
  if (stateOverride) return FINISHED;
  nextState = PATH_START;
  return end - 1;
}

function fileState(input, pointer, c, base, url) {
  url.scheme = "file";
  url.special = true;
  url.host = "";
  if (c === 0x2f || c === 0x5c) {
    nextState = FILE_SLASH;
    return pointer;
  }
  if (isFile(base)) {
    url.host = base.host;
    url.path = base.path;
    url.query = base.query;
    if (c === 0x3f) {
      url.query = "";
      nextState = QUERY;
      return pointer;
    }
    if (c === 0x23) {
      url.fragment = "";
      nextState = FRAGMENT;
      return pointer;
    }
    if (c === EOF) {
      nextState = FILE;
      return pointer;
    }
    url.query = null;
    if (!startsWithWindowsDriveLetter(input, pointer, input.length)) shortenPath(url);
    else url.path = "";
  }
  nextState = PATH;
  return pointer - 1;
}

// The file host state. Going on in the path state means the Windows drive letter quirk: the caller
// keeps the two code points before the returned pointer as the path's first segment.
function fileHostState(input, pointer, url, stateOverride) {
  const length = input.length;
  let end = pointer;
  for (; end < length; end++) {
    const d = input.charCodeAt(end);
    if (d === 0x2f || d === 0x5c || d === 0x3f || d === 0x23) break;
  }
  if (!stateOverride && end - pointer === 2 && isWindowsDriveLetter(input, pointer)) {
    nextState = PATH;
    return end - 1;
  }
  if (end === pointer) {
    url.host = "";
  } else {
    let host = parseHost(input, pointer, end, false);
    if (host === null) return FAILURE;
    if (host === "localhost") host = "";
    url.host = host;
  }
  if (stateOverride) return FINISHED;
  nextState = PATH_START;
  return end - 1;
}

// The path state, whole: every segment up to the query, the fragment or the end. The buffer of its
// first segment starts at `start` (before `pointer` only after the drive letter quirk).
function pathState(input, start, pointer, url, stateOverride) {
  nextState = PATH;
  // When the path starts after a "/" of the input, on an empty path, and has no dot segment,
  // nothing to percent-encode and no "\\", it is that text of the input.
  if (url.path.length === 0 && start > 0 && input.charCodeAt(start - 1) === 0x2f && !isFile(url)) {
    const end = verbatimPathEnd(input, start, stateOverride);
    if (end !== -1) {
      url.path = input.slice(start - 1, end);
      return pathEnd(input, end, url);
    }
  }
  verbatim = false;
  return pathBySegment(input, start, pointer, url, stateOverride);
}

// Where the path starting at `start` ends (at "?", "#" or the end) when it is the input's own
// text: no dot segment, nothing to percent-encode, no "\\"; else -1.
function verbatimPathEnd(input, start, stateOverride) {
  const length = input.length;
  let segment = start;
  let end = start;
  for (; end < length; end++) {
    const d = input.charCodeAt(end);
    if (d === 0x2f) {
      if (dotSegment(input, segment, end) !== 0) return -1;
      segment = end + 1;
    } else if (d >= 0x80 || PATH_SET[d] !== null || d === 0x5c) {
      if ((d !== 0x3f && d !== 0x23) || stateOverride) return -1;
      break;
    }
  }
  return dotSegment(input, segment, end) === 0 ? end : -1;
}

// The path state segment by segment, from `start` (the first segment's buffer) and `pointer`
// (where to read on from). `prefix` is the path on entering the state, the first `count` of
// `segments` what the state appended since (percent-encoded), concatenated once at the end. (One
// array for every parse, as the state runs to its end before another parse can start; its length
// is never set, which costs more than the counter.)
function pathBySegment(input, start, pointer, url, stateOverride) {
  const length = input.length;
  const special = url.special;
  let prefix = url.path;
  const segments = pathSegments;
  let count = 0;
  let segmentStart = start;
  let end = pointer;
  let d = EOF;
  for (;;) {
    d = EOF;
    for (; end < length; end++) {
      d = input.charCodeAt(end);
      if (d === 0x2f || (special && d === 0x5c) || (!stateOverride && (d === 0x3f || d === 0x23))) break;
    }
    if (end === length) d = EOF;
    const slash = d === 0x2f || (special && d === 0x5c);
    const dots = dotSegment(input, segmentStart, end);
    if (dots === 2) {
      // Shorten the path, but not past a file URL's drive letter.
      if (count === 0) {
        prefix = shortenedPath(prefix, isFile(url));
      } else if (!(count === 1 && prefix.length === 0 && isFile(url) && isNormalizedDriveLetter(segments[0]))) {
        count--;
      }
      if (!slash) segments[count++] = "";
    } else if (dots === 1) {
      if (!slash) segments[count++] = "";
    } else {
      let segment = percentEncode(input, segmentStart, end, PATH_SET);
      if (prefix.length === 0 && count === 0 && segment.length === 2 && isFile(url) && isWindowsDriveLetter(segment, 0)) {
        segment = segment[0] + ":";
      }
      segments[count++] = segment;
    }
    if (!slash) break;
    segmentStart = end = end + 1;
  }
  // (Concatenated: join costs more than a few ropes.)
  let path = prefix;
  for (let i = 0; i < count; i++) {
    path += "/" + segments[i];
    segments[i] = "";
  }
  url.path = path;
  return pathEnd(input, end, url);
}

const pathSegments = [];

// After the path: the query or the fragment that the code point at `end` starts, if it is one.
function pathEnd(input, end, url) {
  if (end < input.length) {
    const d = input.charCodeAt(end);
    if (d === 0x3f) {
      url.query = "";
      nextState = QUERY;
    } else if (d === 0x23) {
      url.fragment = "";
      nextState = FRAGMENT;
    }
  }
  return end;
}

function opaquePathState(input, pointer, url) {
  const length = input.length;
  let end = pointer;
  for (; end < length; end++) {
    const d = input.charCodeAt(end);
    if (d === 0x3f || d === 0x23) break;
  }
  url.path += percentEncode(input, pointer, end, C0_CONTROL_SET);
  nextState = OPAQUE_PATH;
  return pathEnd(input, end, url);
}

function queryState(input, pointer, url, stateOverride) {
  const length = input.length;
  let end = stateOverride ? length : input.indexOf("#", pointer);
  if (end === -1) end = length;
  url.query += percentEncode(input, pointer, end, url.special ? SPECIAL_QUERY_SET : QUERY_SET);
  nextState = QUERY;
  if (end < length) {
    url.fragment = "";
    nextState = FRAGMENT;
  }
  return end;
}

// The URL serializer. (Each concatenation of three is one rope.)
function serializeURL(url) {
  const host = url.host;
  let output;
  if (host !== null) {
    let authority = url.port === null ? host : host + ":" + url.port;
    // (Lengths, not comparisons with "": a component may be a rope, which a comparison flattens.)
    if (url.username.length !== 0 || url.password.length !== 0) {
      authority = (url.password.length === 0 ? url.username : url.username + ":" + url.password) + "@" + authority;
    }
    const prefix = url.special ? schemePrefix(url.scheme) : url.scheme + "://";
    output = prefix + authority + url.path;
  } else if (!url.opaque && url.path.length > 1 && url.path.charCodeAt(1) === 0x2f) {
    output = url.scheme + ":/." + url.path;
  } else {
    output = url.scheme + ":" + url.path;
  }
  if (url.query !== null) output = output + "?" + url.query;
  if (url.fragment !== null) output = output + "#" + url.fragment;
  return output;
}

// A special scheme and "://", as one literal.
function schemePrefix(scheme) {
  switch (scheme) {
    case "http": return "http://";
    case "https": return "https://";
    case "ws": return "ws://";
    case "wss": return "wss://";
    case "ftp": return "ftp://";
    default: return "file://";
  }
}

function href(url) {
  return url.href ??= serializeURL(url);
}

function serializeOrigin(url) {
  switch (url.scheme) {
    case "blob": {
      // A blob: URL's origin is that of the URL in its path, when that is an http(s) URL.
      const inner = basicURLParse(url.path, null, null, 0);
      return inner !== null && (inner.scheme === "http" || inner.scheme === "https") ? serializeOrigin(inner) : "null";
    }
    case "ftp":
    case "http":
    case "https":
    case "ws":
    case "wss":
      return url.scheme + "://" + url.host + (url.port === null ? "" : ":" + url.port);
    default:
      return "null";
  }
}

function cannotHaveCredentialsOrPort(url) {
  return url.host === null || url.host.length === 0 || isFile(url);
}

// ---- application/x-www-form-urlencoded ---------------------------------------------------------

function decodeFormComponent(text) {
  if (text.indexOf("+") !== -1) text = text.replaceAll("+", " ");
  return text.indexOf("%") === -1 ? text : percentDecode(text);
}

// The parser: a list of [name, value] pairs.
function parseForm(input) {
  const list = [];
  const length = input.length;
  let start = 0;
  while (start < length) {
    let end = input.indexOf("&", start);
    if (end === -1) end = length;
    if (end > start) {
      const equals = input.indexOf("=", start);
      if (equals === -1 || equals > end) {
        list.push([decodeFormComponent(input.slice(start, end)), ""]);
      } else {
        list.push([decodeFormComponent(input.slice(start, equals)), decodeFormComponent(input.slice(equals + 1, end))]);
      }
    }
    start = end + 1;
  }
  return list;
}

// The serializer.
function serializeForm(list) {
  let output = "";
  for (let i = 0; i < list.length; i++) {
    const [name, value] = list[i];
    if (i !== 0) output += "&";
    output += percentEncode(name, 0, name.length, FORM_SET) + "=" + percentEncode(value, 0, value.length, FORM_SET);
  }
  return output;
}

// ---- Web IDL -------------------------------------------------------------------------------------

// USVString: ToString (a Symbol throws a TypeError), lone surrogates becoming U+FFFD.
function usv(value) {
  const text = typeof value === "string" ? value : `${value}`;
  return text.isWellFormed() ? text : text.toWellFormed();
}

function quoted(text) {
  return JSON.stringify(text.length > 200 ? text.slice(0, 200) + "..." : text);
}

// The last base URL parsed, and its record: code that resolves many URLs resolves them against one
// base. The parser never changes a base record, and no URL object holds one.
let lastBase = null;
let lastBaseRecord = null;

// The record of `base` (a string), or null when it does not parse.
function parseBase(base) {
  if (base === lastBase) return lastBaseRecord;
  const record = basicURLParse(base, null, null, 0);
  lastBase = base;
  lastBaseRecord = record;
  return record;
}

// A string argument as a USVString for the parser. ToString, but lone surrogates are left: the
// parser percent-encodes each as U+FFFD would be, and a domain with one fails as U+FFFD makes it.
function parserInput(value) {
  return typeof value === "string" ? value : `${value}`;
}

// Parses url against base (a string or undefined): a record, or null when either fails to parse.
function parseAgainst(url, base) {
  let baseRecord = null;
  if (base !== undefined) {
    baseRecord = parseBase(base);
    if (baseRecord === null) return null;
  }
  return basicURLParse(url, baseRecord, null, 0);
}

// ---- URL -----------------------------------------------------------------------------------------

let recordOf; // (url, member) => its record, or a TypeError when it is not a URL
let isURL;
let attachSearchParams; // (record) => a URLSearchParams whose list follows the record's query
let setSearchParamsList; // (params, list)
const FROM_RECORD = Symbol("URL record");

class URL {
  #url;

  constructor(url, base = undefined) {
    if (url === FROM_RECORD) {
      this.#url = base;
      return;
    }
    if (url === undefined && arguments.length === 0) requireArguments(0, 1, "Failed to construct 'URL'");
    const input = parserInput(url);
    let baseRecord = null;
    let baseInput = "";
    if (base !== undefined) {
      baseInput = parserInput(base);
      baseRecord = parseBase(baseInput);
      if (baseRecord === null) throw new TypeError(`Failed to construct 'URL': Invalid base URL ${quoted(baseInput)}`);
    }
    const record = basicURLParse(input, baseRecord, null, 0);
    if (record === null) {
      throw new TypeError(`Failed to construct 'URL': Invalid URL ${quoted(input)}${base === undefined ? "" : ` against the base ${quoted(baseInput)}`}`);
    }
    this.#url = record;
  }

  static {
    recordOf = (url, member) => {
      if (url !== null && typeof url === "object" && #url in url) return url.#url;
      throw new TypeError(`URL.prototype.${member}: 'this' is not a URL`);
    };
    isURL = (value) => value !== null && typeof value === "object" && #url in value;
  }

  static canParse(url, base = undefined) {
    requireArguments(arguments.length, 1, "Failed to execute 'canParse' on 'URL'");
    return parseAgainst(parserInput(url), base === undefined ? undefined : parserInput(base)) !== null;
  }

  static parse(url, base = undefined) {
    requireArguments(arguments.length, 1, "Failed to execute 'parse' on 'URL'");
    const record = parseAgainst(parserInput(url), base === undefined ? undefined : parserInput(base));
    return record === null ? null : new URL(FROM_RECORD, record);
  }

  get href() {
    return href(recordOf(this, "href"));
  }

  set href(value) {
    const url = recordOf(this, "href");
    const input = usv(value);
    const parsed = basicURLParse(input, null, null, 0);
    if (parsed === null) throw new TypeError(`Failed to set 'href' on 'URL': Invalid URL ${quoted(input)}`);
    copyRecord(parsed, url);
    if (url.queryObject !== null) setSearchParamsList(url.queryObject, url.query === null ? [] : parseForm(url.query));
  }

  get origin() {
    return serializeOrigin(recordOf(this, "origin"));
  }

  get protocol() {
    return recordOf(this, "protocol").scheme + ":";
  }

  set protocol(value) {
    const url = recordOf(this, "protocol");
    const input = usv(value);
    url.href = null;
    basicURLParse(input + ":", null, url, SCHEME_START);
  }

  get username() {
    return recordOf(this, "username").username;
  }

  set username(value) {
    const url = recordOf(this, "username");
    const input = usv(value);
    if (cannotHaveCredentialsOrPort(url)) return;
    url.href = null;
    url.username = percentEncode(input, 0, input.length, USERINFO_SET);
  }

  get password() {
    return recordOf(this, "password").password;
  }

  set password(value) {
    const url = recordOf(this, "password");
    const input = usv(value);
    if (cannotHaveCredentialsOrPort(url)) return;
    url.href = null;
    url.password = percentEncode(input, 0, input.length, USERINFO_SET);
  }

  get host() {
    const url = recordOf(this, "host");
    if (url.host === null) return "";
    return url.port === null ? url.host : url.host + ":" + url.port;
  }

  set host(value) {
    const url = recordOf(this, "host");
    const input = usv(value);
    if (url.opaque) return;
    url.href = null;
    basicURLParse(input, null, url, HOST);
  }

  get hostname() {
    return recordOf(this, "hostname").host ?? "";
  }

  set hostname(value) {
    const url = recordOf(this, "hostname");
    const input = usv(value);
    if (url.opaque) return;
    url.href = null;
    basicURLParse(input, null, url, HOSTNAME);
  }

  get port() {
    const port = recordOf(this, "port").port;
    return port === null ? "" : `${port}`;
  }

  set port(value) {
    const url = recordOf(this, "port");
    const input = usv(value);
    if (cannotHaveCredentialsOrPort(url)) return;
    url.href = null;
    if (input === "") url.port = null;
    else basicURLParse(input, null, url, PORT);
  }

  get pathname() {
    return recordOf(this, "pathname").path;
  }

  set pathname(value) {
    const url = recordOf(this, "pathname");
    const input = usv(value);
    if (url.opaque) return;
    url.href = null;
    url.path = "";
    basicURLParse(input, null, url, PATH_START);
  }

  get search() {
    const query = recordOf(this, "search").query;
    return query === null || query.length === 0 ? "" : "?" + query;
  }

  set search(value) {
    const url = recordOf(this, "search");
    const input = usv(value);
    url.href = null;
    if (input === "") {
      url.query = null;
      if (url.queryObject !== null) setSearchParamsList(url.queryObject, []);
      potentiallyStripTrailingSpaces(url);
      return;
    }
    const query = input.charCodeAt(0) === 0x3f ? input.slice(1) : input;
    url.query = "";
    basicURLParse(query, null, url, QUERY);
    if (url.queryObject !== null) setSearchParamsList(url.queryObject, parseForm(query));
  }

  get searchParams() {
    const url = recordOf(this, "searchParams");
    return url.queryObject ??= attachSearchParams(url);
  }

  get hash() {
    const fragment = recordOf(this, "hash").fragment;
    return fragment === null || fragment.length === 0 ? "" : "#" + fragment;
  }

  set hash(value) {
    const url = recordOf(this, "hash");
    const input = usv(value);
    url.href = null;
    if (input === "") {
      url.fragment = null;
      potentiallyStripTrailingSpaces(url);
      return;
    }
    url.fragment = "";
    basicURLParse(input.charCodeAt(0) === 0x23 ? input.slice(1) : input, null, url, FRAGMENT);
  }

  toJSON() {
    return href(recordOf(this, "toJSON"));
  }

  toString() {
    return href(recordOf(this, "toString"));
  }
}
enumerable(URL.prototype, ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname",
  "search", "searchParams", "hash", "toJSON", "toString"]);
enumerable(URL, ["canParse", "parse"]);
toStringTag(URL.prototype, "URL");

// ---- URLSearchParams ---------------------------------------------------------------------------

let paramsOf; // (params, member) => the params, or a TypeError when it is not a URLSearchParams
let isSearchParams;
let listOf; // (params) => its current list


function isObject(value) {
  return value !== null && (typeof value === "object" || typeof value === "function");
}

class URLSearchParams {
  #list;
  #url = null; // the record of the URL whose query this is

  constructor(init = "") {
    const what = "Failed to construct 'URLSearchParams'";
    if (isObject(init)) {
      const method = init[Symbol.iterator];
      if (method !== undefined && method !== null) {
        if (typeof method !== "function") throw new TypeError(`${what}: The object's Symbol.iterator is not a function`);
        const list = [];
        for (const pair of { [Symbol.iterator]: () => method.call(init) }) {
          if (!isObject(pair)) throw new TypeError(`${what}: The provided value cannot be converted to a sequence.`);
          const items = [];
          for (const item of pair) items.push(usv(item));
          if (items.length !== 2) throw new TypeError(`${what}: Sequence initializer must only contain pair elements`);
          list.push(items);
        }
        this.#list = list;
      } else {
        // record<USVString, USVString>: own enumerable keys, in order; a key that converts to one
        // already seen (lone surrogates) keeps its place and takes the later value.
        const record = new Map();
        for (const key of Reflect.ownKeys(init)) {
          const descriptor = Reflect.getOwnPropertyDescriptor(init, key);
          if (descriptor === undefined || !descriptor.enumerable) continue;
          const name = usv(key);
          record.set(name, usv(init[key]));
        }
        this.#list = Array.from(record);
      }
    } else {
      const text = usv(init);
      this.#list = parseForm(text.charCodeAt(0) === 0x3f ? text.slice(1) : text);
    }
  }

  static {
    paramsOf = (params, member) => {
      if (params !== null && typeof params === "object" && #list in params) return params;
      throw new TypeError(`URLSearchParams.prototype.${member}: 'this' is not a URLSearchParams`);
    };
    isSearchParams = (value) => value !== null && typeof value === "object" && #list in value;
    attachSearchParams = (url) => {
      const params = new URLSearchParams();
      params.#list = url.query === null ? [] : parseForm(url.query);
      params.#url = url;
      return params;
    };
    setSearchParamsList = (params, list) => {
      params.#list = list;
    };
    listOf = (params) => params.#list;
  }

  // The update steps: the URL's query follows the list.
  #update() {
    const url = this.#url;
    if (url === null) return;
    const query = serializeForm(this.#list);
    url.href = null;
    url.query = query === "" ? null : query;
    if (url.query === null) potentiallyStripTrailingSpaces(url);
  }

  get size() {
    return paramsOf(this, "size").#list.length;
  }

  append(name, value) {
    const params = paramsOf(this, "append");
    requireArguments(arguments.length, 2, "Failed to execute 'append' on 'URLSearchParams'");
    params.#list.push([usv(name), usv(value)]);
    params.#update();
  }

  delete(name, value = undefined) {
    const params = paramsOf(this, "delete");
    requireArguments(arguments.length, 1, "Failed to execute 'delete' on 'URLSearchParams'");
    const key = usv(name);
    const list = params.#list;
    if (value === undefined) {
      params.#list = list.filter((pair) => pair[0] !== key);
    } else {
      const text = usv(value);
      params.#list = list.filter((pair) => pair[0] !== key || pair[1] !== text);
    }
    params.#update();
  }

  get(name) {
    const params = paramsOf(this, "get");
    requireArguments(arguments.length, 1, "Failed to execute 'get' on 'URLSearchParams'");
    const key = usv(name);
    const pair = params.#list.find((pair) => pair[0] === key);
    return pair === undefined ? null : pair[1];
  }

  getAll(name) {
    const params = paramsOf(this, "getAll");
    requireArguments(arguments.length, 1, "Failed to execute 'getAll' on 'URLSearchParams'");
    const key = usv(name);
    return params.#list.filter((pair) => pair[0] === key).map((pair) => pair[1]);
  }

  has(name, value = undefined) {
    const params = paramsOf(this, "has");
    requireArguments(arguments.length, 1, "Failed to execute 'has' on 'URLSearchParams'");
    const key = usv(name);
    if (value === undefined) return params.#list.some((pair) => pair[0] === key);
    const text = usv(value);
    return params.#list.some((pair) => pair[0] === key && pair[1] === text);
  }

  set(name, value) {
    const params = paramsOf(this, "set");
    requireArguments(arguments.length, 2, "Failed to execute 'set' on 'URLSearchParams'");
    const key = usv(name);
    const text = usv(value);
    const list = [];
    let found = false;
    for (const pair of params.#list) {
      if (pair[0] !== key) list.push(pair);
      else if (!found) {
        list.push([key, text]);
        found = true;
      }
    }
    if (!found) list.push([key, text]);
    params.#list = list;
    params.#update();
  }

  sort() {
    const params = paramsOf(this, "sort");
    // Array.prototype.sort is stable; names compare by UTF-16 code units.
    params.#list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    params.#update();
  }

  entries() {
    return paramsIterator(paramsOf(this, "entries"), "entries");
  }

  keys() {
    return paramsIterator(paramsOf(this, "keys"), "keys");
  }

  values() {
    return paramsIterator(paramsOf(this, "values"), "values");
  }

  forEach(callback, thisArg = undefined) {
    const params = paramsOf(this, "forEach");
    requireArguments(arguments.length, 1, "Failed to execute 'forEach' on 'URLSearchParams'");
    if (typeof callback !== "function") {
      throw new TypeError("Failed to execute 'forEach' on 'URLSearchParams': parameter 1 is not of type 'Function'");
    }
    // The list is read again on each step: the callback may change it.
    for (let i = 0; i < params.#list.length; i++) {
      const pair = params.#list[i];
      callback.call(thisArg, pair[1], pair[0], params);
    }
  }

  toString() {
    return serializeForm(paramsOf(this, "toString").#list);
  }
}
enumerable(URLSearchParams.prototype, ["size", "append", "delete", "get", "getAll", "has", "set", "sort", "entries", "keys",
  "values", "forEach", "toString"]);
Object.defineProperty(URLSearchParams.prototype, Symbol.iterator, {
  value: URLSearchParams.prototype.entries, writable: true, enumerable: false, configurable: true,
});
toStringTag(URLSearchParams.prototype, "URLSearchParams");

const paramsIterator = pairIterator("URLSearchParams", listOf);

define("URL", URL);
define("URLSearchParams", URLSearchParams);
// URLs and their search parameters are platform objects that cannot be cloned.
internals.platformObjects.register((value) => isURL(value) || isSearchParams(value), null);
