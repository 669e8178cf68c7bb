// TextEncoder, TextDecoder, atob and btoa where node 20 follows the WHATWG Encoding Standard:
// TextEncodingConformanceTests runs this under hybrid and node and compares what they print.
// (text-encoding-legacy.js has what node's ICU gets wrong, against the standard's answers.)

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ");
const units = (text) => Array.from(text, (c) => c.codePointAt(0).toString(16)).join(" ");
const show = (label, value) => console.log(`${label}: ${value}`);
const attempt = (f) => {
  try {
    return f();
  } catch (error) {
    return `throws ${error.constructor.name} ${error.name}`;
  }
};

// Labels: case, whitespace, aliases, and what is no label.
for (const label of ["utf8", " UTF-8\n", "unicode-1-1-utf-8", "utf-16", "UTF-16BE", "latin1", "ascii", "iso-8859-1",
  "cp1252", "gb2312", "x-gbk", "GB18030", "big5-hkscs", "x-euc-jp", "csiso2022jp", "ms932", "windows-31j", "ks_c_5601-1987",
  "koi8-u", "macintosh", "x-mac-cyrillic", "iso-8859-8-i", "windows-874", "dos-866"]) {
  show(`label ${JSON.stringify(label)}`, attempt(() => new TextDecoder(label).encoding));
}
for (const label of ["utf-7", "utf-32", "\u000butf-8", "utf-8\u00a0", "x-mac-roman2", ""]) {
  show(`label ${JSON.stringify(label)}`, attempt(() => new TextDecoder(label).encoding));
}

// The interfaces' shape.
show("lengths", [TextDecoder.length, TextEncoder.length, TextDecoder.prototype.decode.length,
  TextEncoder.prototype.encode.length, TextEncoder.prototype.encodeInto.length, atob.length, btoa.length].join(" "));
show("decoder members", Object.keys(TextDecoder.prototype).sort().join(" "));
show("encoder members", Object.keys(TextEncoder.prototype).sort().join(" "));
show("tags", `${Object.prototype.toString.call(new TextDecoder())} ${Object.prototype.toString.call(new TextEncoder())}`);
show("defaults", [new TextDecoder().encoding, new TextDecoder().fatal, new TextDecoder().ignoreBOM, new TextEncoder().encoding].join(" "));
show("options", [new TextDecoder("utf-8", { fatal: 1, ignoreBOM: "yes" }).fatal, new TextDecoder(undefined, null).encoding].join(" "));
show("brand checks", [attempt(() => TextDecoder.prototype.decode.call({})), attempt(() => TextEncoder.prototype.encode.call(new TextDecoder())),
  attempt(() => Object.getOwnPropertyDescriptor(TextDecoder.prototype, "encoding").get.call(1))].join(", "));
show("without new", attempt(() => TextDecoder()));

// TextEncoder: UTF-8, lone surrogates as U+FFFD, ToString of what is not a string.
const encoder = new TextEncoder();
for (const text of ["", "ASCII", "é", "日本語", "😀", "\ud800", "a\udc00b", "\udbff\udfff", "\ud83d\ude00\ud83d", 12.5, null, undefined]) {
  show(`encode ${JSON.stringify(text)}`, hex(encoder.encode(text)));
}
show("encode()", hex(encoder.encode()));
show("encode(symbol)", attempt(() => encoder.encode(Symbol("x"))));
show("encode is new", encoder.encode("a") !== encoder.encode("a") && encoder.encode("a") instanceof Uint8Array);
for (const [text, size] of [["a😀b", 0], ["a😀b", 1], ["a😀b", 4], ["a😀b", 5], ["a😀b", 6], ["€€", 5], ["\ud800x", 3], ["\ud800x", 4]]) {
  const destination = new Uint8Array(size + 2).fill(0xaa);
  const result = encoder.encodeInto(text, destination.subarray(1, size + 1));
  show(`encodeInto ${JSON.stringify(text)} into ${size}`, `${JSON.stringify(result)} ${hex(destination)}`);
}
show("encodeInto bad destination", [attempt(() => encoder.encodeInto("a", new Uint16Array(2))),
  attempt(() => encoder.encodeInto("a", new ArrayBuffer(2))), attempt(() => encoder.encodeInto("a"))].join(", "));

// UTF-8 decoding: maximal subparts, fatal, BOM.
const utf8 = new TextDecoder();
const fatal = new TextDecoder("utf-8", { fatal: true });
for (const bytes of [[0x41], [0xc3, 0xa9], [0xe6, 0x97, 0xa5], [0xf0, 0x9f, 0x98, 0x80], [0xff], [0xc0, 0x80], [0xe0, 0x80, 0x80],
  [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x9f, 0x41], [0xe6, 0x97], [0xef, 0xbb, 0xbf, 0x41], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf],
  [0x80, 0xbf, 0xc2], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
  const input = new Uint8Array(bytes);
  show(`utf-8 ${hex(input)}`, `${units(utf8.decode(input))} | fatal ${attempt(() => units(fatal.decode(input)))}`);
}
show("ignoreBOM", units(new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))));
show("inputs", [utf8.decode(), utf8.decode(undefined), utf8.decode(new Uint8Array([0x41, 0x42, 0x43]).buffer),
  utf8.decode(new DataView(new Uint8Array([0x41, 0x42, 0x43]).buffer, 1, 2)), utf8.decode(new Uint8Array([0x41, 0x42, 0x43]).subarray(2)),
  utf8.decode(new Uint16Array([0x4241])), utf8.decode(new Float32Array(0))].join(","));
show("bad inputs", [attempt(() => utf8.decode(null)), attempt(() => utf8.decode([65])), attempt(() => utf8.decode("A")),
  attempt(() => utf8.decode(new Uint8Array(1), { get stream() { throw new RangeError("x"); } }))].join(", "));

// Streaming: every split of a text with every sequence length decodes as the whole does.
const sample = encoder.encode("aé日😀\u0800\uffff𐀀z");
for (const label of ["utf-8"]) {
  let same = true;
  for (let split = 0; split <= sample.length; split++) {
    const decoder = new TextDecoder(label);
    const text = decoder.decode(sample.subarray(0, split), { stream: true }) + decoder.decode(sample.subarray(split));
    if (text !== new TextDecoder(label).decode(sample)) same = false;
  }
  show(`${label} splits`, same);
}
const streaming = new TextDecoder();
show("stream", JSON.stringify([streaming.decode(new Uint8Array([0xef, 0xbb]), { stream: true }), streaming.decode(new Uint8Array([0xbf, 0xe6]), { stream: true }),
  streaming.decode(new Uint8Array([0x97, 0xa5, 0xf0]), { stream: true }), units(streaming.decode()), streaming.decode(new Uint8Array([0xef, 0xbb, 0xbf]))]));
const fatalStream = new TextDecoder("utf-16le", { fatal: true });
show("fatal stream", [fatalStream.decode(new Uint8Array([0]), { stream: true }), units(fatalStream.decode(new Uint8Array([0]))),
  attempt(() => fatalStream.decode(new Uint8Array([0]))), units(fatalStream.decode(new Uint8Array([0x41, 0])))].join(","));

// UTF-16.
for (const [label, bytes] of [["utf-16le", [0x41, 0, 0xe5, 0x65, 0x3d, 0xd8, 0, 0xde]], ["utf-16be", [0, 0x41, 0x65, 0xe5, 0xd8, 0x3d, 0xde, 0]],
  ["utf-16le", [0, 0xd8, 0x41, 0]], ["utf-16le", [0, 0xdc, 0, 0xd8]], ["utf-16le", [0x41]], ["utf-16le", [0xff, 0xfe, 0x41, 0]],
  ["utf-16be", [0xfe, 0xff, 0, 0x41]], ["utf-16le", [0xfe, 0xff, 0x41, 0]]]) {
  show(`${label} ${hex(bytes)}`, units(new TextDecoder(label).decode(new Uint8Array(bytes))));
}

// Single-byte encodings: every byte of a few.
for (const label of ["iso-8859-2", "koi8-r", "windows-1251", "ibm866", "iso-8859-7"]) {
  const all = new Uint8Array(256).map((_, i) => i);
  show(label, units(new TextDecoder(label).decode(all.subarray(0x80))));
}

// Chinese, Japanese and Korean text as business data has it.
const cjk = [
  ["gbk", [0xc9, 0xcf, 0xba, 0xa3, 0xca, 0xd0, 0x31, 0x32, 0xd4, 0xaa]],
  ["gb18030", [0xd6, 0xd0, 0xce, 0xc4, 0x81, 0x30, 0x84, 0x36, 0x90, 0x30, 0x81, 0x30]],
  ["big5", [0xa4, 0xa4, 0xa4, 0xe5, 0xbb, 0x4f, 0xc6, 0x57]],
  ["euc-jp", [0xc6, 0xfc, 0xcb, 0xdc, 0xb8, 0xec, 0x8e, 0xb1]],
  ["iso-2022-jp", [0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42, 0x41]],
  ["shift_jis", [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0xb1, 0x41]],
  ["euc-kr", [0xc7, 0xd1, 0xb1, 0xb9, 0xbe, 0xee, 0x41]],
];
for (const [label, bytes] of cjk) {
  const input = new Uint8Array(bytes);
  show(`${label} ${hex(input)}`, units(new TextDecoder(label).decode(input)));
  let same = true;
  for (let split = 0; split <= input.length; split++) {
    const decoder = new TextDecoder(label);
    if (decoder.decode(input.subarray(0, split), { stream: true }) + decoder.decode(input.subarray(split)) !== new TextDecoder(label).decode(input)) {
      same = false;
    }
  }
  show(`${label} splits`, same);
}

// atob and btoa.
for (const text of ["", "YQ==", "YQ", " Y W\nJ\tj ", "YR==", "/+8=", "Y", "YQ=", "YQ===", "=", "Y=Q=", "YQ-_", "ü", "YWJjZ", undefined, null, 12]) {
  show(`atob ${JSON.stringify(text)}`, attempt(() => units(atob(text))));
}
for (const text of ["", "a", "ab", "abc", "\u00ff\u00fe\u0000", "\u0100", "€", null, undefined, 1.5]) {
  show(`btoa ${JSON.stringify(text)}`, attempt(() => btoa(text)));
}
show("atob()", attempt(() => atob()));
show("error code", attempt(() => { try { atob("a"); } catch (error) { return `${error instanceof DOMException} ${error.code}`; } }));
