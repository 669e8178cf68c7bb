// CompressionStream and DecompressionStream (js/web/compression.js, over zlib) as the WHATWG
// Compression Standard has them; TextEncoderStream and TextDecoderStream (js/web/encoding-streams.js)
// and Blob.prototype.stream(), which they are often piped with. The web-platform-tests'
// compression/ is not in node's vendored subset, so the standard's cases are here;
// WebCompressionTests compares a script's output with node's, and scripts/wpt runs encoding/streams
// and FileAPI/blob.

const FORMATS = ["gzip", "deflate", "deflate-raw"];
const encoder = new TextEncoder();

function concat(parts) {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

// Writes `chunks` into `transform` and closes it; every chunk read, or the error reading threw
// (`{ error, chunks }`, the chunks read before it).
async function through(transform, chunks) {
  const writer = transform.writable.getWriter();
  for (const chunk of chunks) writer.write(chunk).catch(() => {});
  writer.close().catch(() => {});
  const reader = transform.readable.getReader();
  const read = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return read;
      read.push(value);
    }
  } catch (error) {
    return { error, chunks: read };
  }
}

async function readAll(readable) {
  const chunks = [];
  for await (const chunk of readable) chunks.push(chunk);
  return chunks;
}

async function compress(format, chunks) {
  return concat(await through(new CompressionStream(format), chunks));
}

async function decompress(format, chunks) {
  const result = await through(new DecompressionStream(format), chunks);
  if (!Array.isArray(result)) throw result.error;
  return concat(result);
}

// Text-like bytes from a fixed seed.
function seededText(length) {
  const words = ["order", "widget", "shipped", "to", "Downing", "St", "42", "EUR", "total", "item"];
  let state = 7;
  let text = "";
  while (text.length < length) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += words[state % words.length] + (state % 5 === 0 ? "\n" : " ");
  }
  return encoder.encode(text.slice(0, length));
}

function equalBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

describe("CompressionStream and DecompressionStream", () => {
  test("are installed lazily, as Web IDL interfaces with the GenericTransformStream attributes", () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, "CompressionStream");
    expect(typeof before.get).toBe("function");
    expect([CompressionStream.length, DecompressionStream.length]).toEqual([1, 1]);
    expect(Object.keys(CompressionStream.prototype)).toEqual(["readable", "writable"]);
    expect(Object.keys(DecompressionStream.prototype)).toEqual(["readable", "writable"]);
    const stream = new CompressionStream("gzip");
    expect(Object.prototype.toString.call(stream)).toBe("[object CompressionStream]");
    expect(stream.readable instanceof ReadableStream && stream.writable instanceof WritableStream).toBe(true);
    expect(stream.readable).toBe(stream.readable);
    expect(() => Object.getOwnPropertyDescriptor(CompressionStream.prototype, "readable").get.call({})).toThrow(TypeError);
    expect(() => structuredClone(stream)).toThrow(/could not be cloned|DataCloneError/);
  });

  test("take gzip, deflate and deflate-raw only, as node 20 does", () => {
    for (const format of FORMATS) {
      expect(new CompressionStream(format) instanceof CompressionStream).toBe(true);
      expect(new DecompressionStream(format) instanceof DecompressionStream).toBe(true);
    }
    for (const format of ["brotli", "GZIP", "", "deflate64"]) {
      expect(() => new CompressionStream(format)).toThrow(TypeError);
      expect(() => new DecompressionStream(format)).toThrow(/not a valid enum value of type CompressionFormat/);
    }
    expect(() => new CompressionStream()).toThrow(/1 argument required/);
    expect(() => new DecompressionStream({ toString: () => "gzip" })).not.toThrow();
  });

  test("each format round-trips text, binary and empty input", async () => {
    const binary = new Uint8Array(5000).map((_, i) => (i * 7919) % 256);
    for (const format of FORMATS) {
      for (const input of [seededText(100000), binary, new Uint8Array(0)]) {
        const compressed = await compress(format, [input]);
        expect(compressed.length).toBeGreaterThan(0);
        expect(equalBytes(await decompress(format, [compressed]), input)).toBe(true);
      }
    }
  });

  test("write zlib's framing: gzip's header, deflate's zlib header, nothing around deflate-raw", async () => {
    const input = encoder.encode("hello world");
    // zlib's own bytes at level 6 (Python's zlib.compressobj(6, DEFLATED, wbits) gives the same).
    expect(Array.from(await compress("deflate-raw", [input]))).toEqual([203, 72, 205, 201, 201, 87, 40, 207, 47, 202, 73, 1, 0]);
    expect(Array.from((await compress("deflate", [input])).subarray(0, 2))).toEqual([0x78, 0x9c]);
    expect(Array.from((await compress("gzip", [input])).subarray(0, 10))).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
    // The empty input is still a whole stream: gzip's 20 bytes, deflate's 8, deflate-raw's 2.
    expect(await Promise.all(FORMATS.map(async (format) => (await compress(format, [])).length))).toEqual([20, 8, 2]);
  });

  test("decompress the same however the compressed bytes are cut: a chunk boundary at every byte", async () => {
    const input = seededText(3000);
    for (const format of FORMATS) {
      const compressed = await compress(format, [input]);
      for (let cut = 0; cut <= compressed.length; cut++) {
        const output = await decompress(format, [compressed.subarray(0, cut), compressed.subarray(cut)]);
        if (!equalBytes(output, input)) throw new Error(`${format}: cut at ${cut} decompressed to ${output.length} bytes`);
      }
      // And one byte at a time.
      const bytes = Array.from(compressed, (_, i) => compressed.subarray(i, i + 1));
      expect(equalBytes(await decompress(format, bytes), input)).toBe(true);
    }
  });

  test("compress the same however the input is cut", async () => {
    const input = seededText(20000);
    for (const format of FORMATS) {
      const whole = await compress(format, [input]);
      for (const size of [1, 7, 100, 4096]) {
        const chunks = [];
        for (let i = 0; i < input.length; i += size) chunks.push(input.subarray(i, i + size));
        expect(equalBytes(await decompress(format, [await compress(format, chunks)]), input)).toBe(true);
      }
      // zlib without flushes writes the same stream whatever the chunks were.
      expect(equalBytes(await compress(format, [input.subarray(0, 5), input.subarray(5, 9000), input.subarray(9000)]), whole)).toBe(true);
    }
  });

  test("take ArrayBuffers, DataViews and views at an offset; refuse other chunks with a TypeError", async () => {
    const input = encoder.encode("xxabcdefyy");
    const view = input.subarray(2, 8);
    const expected = await compress("deflate", [encoder.encode("abcdef")]);
    expect(equalBytes(await compress("deflate", [view]), expected)).toBe(true);
    expect(equalBytes(await compress("deflate", [view.slice().buffer]), expected)).toBe(true);
    expect(equalBytes(await compress("deflate", [new DataView(input.buffer, 2, 6)]), expected)).toBe(true);
    expect(equalBytes(await compress("deflate", [new Uint16Array(view.slice().buffer)]), expected)).toBe(true);
    const bad = [undefined, null, 3.14, "abc", {}, [1, 2]];
    // (JavaScriptCore here has no SharedArrayBuffer; where there is one, a shared chunk is refused too.)
    if (typeof SharedArrayBuffer === "function") bad.push(new SharedArrayBuffer(4), new Uint8Array(new SharedArrayBuffer(4)));
    for (const chunk of bad) {
      for (const transform of [new CompressionStream("gzip"), new DecompressionStream("gzip")]) {
        const result = await through(transform, [chunk]);
        expect(result.error).toBeInstanceOf(TypeError);
      }
    }
  });

  test("corrupt data is a TypeError, and so is a stream that stops short, or nothing at all", async () => {
    for (const format of FORMATS) {
      const corrupt = await through(new DecompressionStream(format), [encoder.encode("not compressed at all")]);
      expect(corrupt.error).toBeInstanceOf(TypeError);
      expect(corrupt.error.message).toMatch(`not valid ${format} data`);
      const compressed = await compress(format, [seededText(5000)]);
      const truncated = await through(new DecompressionStream(format), [compressed.subarray(0, compressed.length - 1)]);
      expect(truncated.error).toBeInstanceOf(TypeError);
      expect(truncated.error.message).toMatch(/truncated/);
      const empty = await through(new DecompressionStream(format), []);
      expect(empty.error).toBeInstanceOf(TypeError);
    }
    // A gzip whose checksum is wrong.
    const gzip = await compress("gzip", [encoder.encode("checked")]);
    gzip[gzip.length - 8] ^= 1;
    expect((await through(new DecompressionStream("gzip"), [gzip])).error.message).toMatch(/incorrect data check/);
  });

  test("data after the end of the compressed stream is a TypeError, after the output before it", async () => {
    for (const format of FORMATS) {
      const compressed = await compress(format, [encoder.encode("expected output")]);
      const sameChunk = await through(new DecompressionStream(format), [concat([compressed, new Uint8Array([0])])]);
      expect(sameChunk.error).toBeInstanceOf(TypeError);
      expect(sameChunk.error.message).toMatch(/trailing data/);
      expect(new TextDecoder().decode(concat(sameChunk.chunks))).toBe("expected output");
      const nextChunk = await through(new DecompressionStream(format), [compressed, new Uint8Array([0])]);
      expect(nextChunk.error).toBeInstanceOf(TypeError);
      // A second gzip member is trailing data too (the standard's; node 20 decodes both members).
      const twice = await through(new DecompressionStream(format), [concat([compressed, compressed])]);
      expect(twice.error).toBeInstanceOf(TypeError);
      // An empty chunk after the end is no data.
      expect(new TextDecoder().decode(await decompress(format, [compressed, new Uint8Array(0)]))).toBe("expected output");
    }
  });

  test("a chunk that inflates a thousandfold comes out whole, in pieces of at most 1 MiB", async () => {
    const zeros = new Uint8Array(5 << 20);
    const compressed = await compress("gzip", [zeros]);
    expect(compressed.length).toBeLessThan(10000);
    const pieces = await through(new DecompressionStream("gzip"), [compressed]);
    expect(pieces.reduce((sum, piece) => sum + piece.length, 0)).toBe(5 << 20);
    expect(pieces.every((piece) => piece instanceof Uint8Array && piece.length <= 1 << 20)).toBe(true);
    expect(pieces.every((piece) => piece.every((byte) => byte === 0))).toBe(true);
  });

  test("100 MB round-trips through a pipe in 64 KB chunks", async () => {
    const chunkSize = 64 << 10;
    const chunk = seededText(chunkSize);
    let sent = 0;
    const source = new ReadableStream({
      pull(controller) {
        if (sent++ < 1600) controller.enqueue(chunk.slice());
        else controller.close();
      },
    });
    let total = 0;
    let mismatches = 0;
    let position = 0;
    const output = source.pipeThrough(new CompressionStream("deflate")).pipeThrough(new DecompressionStream("deflate"));
    for await (const piece of output) {
      // Each byte is the source chunk's byte at the same offset.
      for (let i = 0; i < piece.length; i += 997) if (piece[i] !== chunk[(position + i) % chunkSize]) mismatches++;
      position += piece.length;
      total += piece.length;
    }
    expect(total).toBe(1600 * chunkSize);
    expect(mismatches).toBe(0);
  });

  test("pipe from a Blob's stream and into TextDecoderStream", async () => {
    const text = "grüße, 世界 🌍\n".repeat(5000);
    const compressed = concat(await readAll(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))));
    const parts = [];
    for await (const part of new Blob([compressed]).stream().pipeThrough(new DecompressionStream("gzip")).pipeThrough(new TextDecoderStream())) {
      parts.push(part);
    }
    expect(parts.join("")).toBe(text);
  });
});

describe("TextEncoderStream and TextDecoderStream", () => {
  test("encode strings to UTF-8, a surrogate pair split across chunks as one character", async () => {
    const stream = new TextEncoderStream();
    expect(stream.encoding).toBe("utf-8");
    expect(Object.keys(TextEncoderStream.prototype)).toEqual(["encoding", "readable", "writable"]);
    const chunks = await through(stream, ["a", "\ud83c", "\udf0d", "", "é", "\ud800", "x", 42, "\ud83c"]);
    expect(Array.from(concat(chunks))).toEqual([0x61, 0xf0, 0x9f, 0x8c, 0x8d, 0xc3, 0xa9, 0xef, 0xbf, 0xbd, 0x78, 0x34, 0x32, 0xef, 0xbf, 0xbd]);
    expect(chunks.every((chunk) => chunk instanceof Uint8Array && chunk.length > 0)).toBe(true);
  });

  test("decode with a streaming TextDecoder: characters split across chunks, labels, fatal and ignoreBOM", async () => {
    const stream = new TextDecoderStream("latin1", { fatal: true });
    expect([stream.encoding, stream.fatal, stream.ignoreBOM]).toEqual(["windows-1252", true, false]);
    expect(Object.keys(TextDecoderStream.prototype)).toEqual(["encoding", "fatal", "ignoreBOM", "readable", "writable"]);
    const bytes = encoder.encode("\ufeffgrüße 🌍");
    const split = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    expect((await through(new TextDecoderStream(), split)).join("")).toBe("grüße 🌍");
    expect((await through(new TextDecoderStream("utf-8", { ignoreBOM: true }), [bytes])).join("")).toBe("\ufeffgrüße 🌍");
    expect((await through(new TextDecoderStream(), [bytes.subarray(0, 6)])).join("")).toBe("gr\ufffd");
    const fatal = await through(new TextDecoderStream("utf-8", { fatal: true }), [new Uint8Array([0x61, 0xff])]);
    expect(fatal.error).toBeInstanceOf(TypeError);
    const truncated = await through(new TextDecoderStream("utf-8", { fatal: true }), [new Uint8Array([0xe4, 0xb8])]);
    expect(truncated.error).toBeInstanceOf(TypeError);
    expect(() => new TextDecoderStream("nope")).toThrow(RangeError);
    expect((await through(new TextDecoderStream(), ["text"])).error).toBeInstanceOf(TypeError);
  });
});

describe("Blob.prototype.stream()", () => {
  test("is a byte stream of the blob's bytes, at most 64 KB a chunk, across its parts", async () => {
    const parts = [seededText(100000), "é", new Uint8Array(70000).fill(3), new Blob(["tail"])];
    const blob = new Blob(parts);
    const chunks = [];
    for await (const chunk of blob.stream()) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk instanceof Uint8Array && chunk.length <= 65536)).toBe(true);
    expect(equalBytes(concat(chunks), await blob.bytes())).toBe(true);
    // Reading the stream leaves the blob whole.
    expect(equalBytes(concat(chunks), await blob.bytes())).toBe(true);
    expect(Object.keys(Blob.prototype)).toContain("stream");
  });

  test("fills a BYOB reader's buffer, and ends for an empty blob", async () => {
    const reader = new Blob(["abc", "defg"]).stream().getReader({ mode: "byob" });
    const first = await reader.read(new Uint8Array(5));
    expect(new TextDecoder().decode(first.value)).toBe("abcde");
    const second = await reader.read(new Uint8Array(5));
    expect(new TextDecoder().decode(second.value)).toBe("fg");
    expect((await reader.read(new Uint8Array(5))).done).toBe(true);
    const empty = await new Blob().stream().getReader().read();
    expect(empty.done).toBe(true);
    expect(() => Blob.prototype.stream.call({})).toThrow(TypeError);
  });
});
