// What node 20's TextDecoder (ICU's converters) gets wrong and the WHATWG Encoding Standard
// decides: TextEncodingConformanceTests compares what hybrid prints with
// text-encoding-legacy.expected.txt, each line of which was checked against the standard.

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
const decode = (label, bytes, options) => attempt(() => units(new TextDecoder(label, options).decode(new Uint8Array(bytes))));

// windows-1252 is not Latin-1: 0x80 to 0x9F are mostly punctuation (node decodes them as C1 controls).
show("windows-1252", decode("windows-1252", Array.from({ length: 32 }, (_, i) => 0x80 + i)));
show("latin1 label", decode("latin1", [0x80, 0x9f]));

// Encodings node does not have: ISO-8859-16, x-user-defined; replacement, which TextDecoder refuses.
show("iso-8859-16", decode("iso-8859-16", [0xa1, 0xa4, 0xaa, 0xde, 0xfe]));
show("x-user-defined", decode("x-user-defined", [0x41, 0x80, 0xff]));
for (const label of ["replacement", "iso-2022-kr", "hz-gb-2312", "csiso2022kr"]) show(`label ${label}`, attempt(() => new TextDecoder(label)));
show("fatal single byte", [decode("iso-8859-6", [0xa1], { fatal: true }), decode("windows-874", [0xdb], { fatal: true }),
  decode("windows-1253", [0xaa], { fatal: true })].join(", "));

// gb18030 and GBK: 0x80 is €, four-byte sequences in both, GB18030-2022's two-byte mappings.
show("gb18030", decode("gb18030", [0x80, 0xa6, 0xd9, 0xfe, 0x59, 0xa3, 0xa0, 0x84, 0x31, 0xa4, 0x39, 0x81, 0x35, 0xf4, 0x37]));
show("gbk four bytes", decode("gbk", [0x81, 0x30, 0x84, 0x36, 0x90, 0x30, 0x81, 0x30]));
show("gb18030 errors", decode("gb18030", [0x81, 0x30, 0x81, 0x41, 0xff, 0xfe, 0x39, 0xfe, 0x39, 0x81]));

// Big5 is Big5-HKSCS: Hong Kong characters, the four two-code-point pairs, 0x80 an error.
show("big5", decode("big5", [0x87, 0x40, 0x88, 0x62, 0x88, 0x64, 0x88, 0xa3, 0xfe, 0xfe, 0x80, 0x81, 0x40]));

// EUC-KR is the Unified Hangul Code; C1 bytes are errors.
show("euc-kr", decode("euc-kr", [0x81, 0x41, 0xc6, 0x52, 0x80, 0xc9, 0xa1, 0xa1, 0x41]));

// EUC-JP: JIS X 0212 after 0x8F, halfwidth katakana after 0x8E, C1 bytes errors.
show("euc-jp", decode("euc-jp", [0x8f, 0xb0, 0xa1, 0x8e, 0xb1, 0x80, 0x8f, 0xf3, 0xa1, 0xad, 0xa1]));

// Shift_JIS: ASCII controls as themselves, 0x80 as U+0080, Windows' user-defined area.
show("shift_jis", decode("shift_jis", [0x1a, 0x1c, 0x7f, 0x80, 0xa0, 0xf0, 0x40, 0xf9, 0xfc, 0x87, 0x40, 0xfa, 0x40, 0xed, 0x40]));

// ISO-2022-JP's escapes: two in a row is an error, as is an escape cut off.
for (const bytes of [[0x1b, 0x28, 0x42, 0x1b, 0x28, 0x42, 0x41], [0x1b, 0x24, 0x42, 0x1b, 0x28, 0x42], [0x1b, 0x24], [0x1b, 0x28, 0x4a, 0x5c, 0x7e],
  [0x1b, 0x28, 0x49, 0x21, 0x5f, 0x60], [0x0e, 0x1b, 0x41], [0x1b, 0x24, 0x42, 0x46, 0x1b, 0x28, 0x42]]) {
  show(`iso-2022-jp ${hex(bytes)}`, decode("iso-2022-jp", bytes));
}

// Legacy multi-byte streaming keeps its state across calls, byte by byte.
for (const [label, bytes] of [["gb18030", [0x81, 0x30, 0x84, 0x36, 0xd6, 0xd0]], ["iso-2022-jp", [0x1b, 0x24, 0x42, 0x46, 0x7c, 0x1b, 0x28, 0x42]],
  ["big5", [0x88, 0x62, 0xa4]], ["euc-jp", [0x8f, 0xb0, 0xa1]]]) {
  const decoder = new TextDecoder(label);
  let text = "";
  for (const byte of bytes) text += decoder.decode(new Uint8Array([byte]), { stream: true });
  show(`${label} byte by byte`, units(text + decoder.decode()));
}

// Web IDL: a dictionary argument that is not an object is a TypeError (node ignores it).
show("options not an object", [attempt(() => new TextDecoder().decode(new Uint8Array(1), 1)), attempt(() => new TextDecoder("utf-8", 1))].join(", "));
