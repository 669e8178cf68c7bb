// An app that streams, as H5 code does: a log split into lines and filtered through
// TransformStreams, a byte source read into the reader's own buffer, a tee, a pipe aborted by a
// signal, ReadableStream.from, and the order in which a pipe's callbacks run. WebStreamsTests runs
// it under hybrid and under node 20 and compares what each prints, line by line.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function lines() {
  let buffered = "";
  return new TransformStream({
    transform(chunk, controller) {
      buffered += decoder.decode(chunk, { stream: true });
      const parts = buffered.split("\n");
      buffered = parts.pop();
      for (const line of parts) controller.enqueue(line);
    },
    flush(controller) {
      if (buffered !== "") controller.enqueue(buffered);
    },
  });
}

function only(level) {
  return new TransformStream({
    transform(line, controller) {
      if (line.startsWith(level)) controller.enqueue(line.slice(level.length + 1));
    },
  });
}

async function logLines() {
  const log = "INFO start\nWARN disk 91%\nINFO tick\nWARN disk 97%\nERROR disk full\nINFO stop";
  const bytes = encoder.encode(log);
  let offset = 0;
  // Seven bytes at a time, so that lines and characters are split across chunks.
  const source = new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 7));
      offset += 7;
    },
  });
  const warnings = [];
  await source.pipeThrough(lines()).pipeThrough(only("WARN")).pipeTo(new WritableStream({
    write(line) { warnings.push(line); },
    close() { warnings.push("(closed)"); },
  }));
  console.log("warnings:", JSON.stringify(warnings));
}

async function byteSource() {
  let produced = 0;
  const stream = new ReadableStream({
    type: "bytes",
    pull(controller) {
      const request = controller.byobRequest;
      const view = request.view;
      const count = Math.min(view.byteLength, 5, 12 - produced);
      for (let i = 0; i < count; i++) view[i] = 65 + produced + i;
      produced += count;
      request.respond(count);
      if (produced === 12) controller.close();
    },
  });
  const reader = stream.getReader({ mode: "byob" });
  let buffer = new ArrayBuffer(8);
  const reads = [];
  for (;;) {
    const { value, done } = await reader.read(new Uint8Array(buffer));
    if (done) break;
    reads.push(decoder.decode(value));
    buffer = value.buffer;
  }
  console.log("byob reads:", JSON.stringify(reads), "buffer kept:", buffer.byteLength);
  const given = new Uint8Array([1, 2, 3]);
  new ReadableStream({ type: "bytes", start(c) { c.enqueue(given); } });
  console.log("enqueued view after enqueue():", given.byteLength);
}

async function teeAndIterate() {
  const [a, b] = ReadableStream.from(["x", "y", "z"]).tee();
  const fromA = [];
  for await (const chunk of a) fromA.push(chunk);
  const reader = b.getReader();
  const first = await reader.read();
  await reader.cancel("done");
  console.log("tee:", fromA.join(""), JSON.stringify(first));

  async function* slowly() {
    yield 1;
    await null;
    yield 2;
    yield 3;
  }
  const seen = [];
  for await (const n of ReadableStream.from(slowly())) {
    seen.push(n);
    if (n === 2) break;
  }
  console.log("from async generator, broken off at 2:", seen.join(","));
}

async function aborted() {
  const controller = new AbortController();
  const events = [];
  let n = 0;
  const source = new ReadableStream({
    pull(c) { c.enqueue(++n); },
    cancel(reason) { events.push(`source canceled: ${reason}`); },
  });
  const sink = new WritableStream({
    write(chunk) {
      events.push(`wrote ${chunk}`);
      if (chunk === 3) controller.abort("enough");
    },
    abort(reason) { events.push(`sink aborted: ${reason}`); },
  });
  try {
    await source.pipeTo(sink, { signal: controller.signal });
  } catch (e) {
    events.push(`pipeTo rejected: ${e}`);
  }
  console.log("abort:", JSON.stringify(events));
}

async function order() {
  const log = [];
  const ts = new TransformStream({
    start() { log.push("start"); },
    transform(chunk, c) { log.push(`transform ${chunk}`); c.enqueue(chunk * 10); },
    flush() { log.push("flush"); },
  }, { highWaterMark: 1 }, { highWaterMark: 0 });
  const writer = ts.writable.getWriter();
  log.push(`desiredSize ${writer.desiredSize}`);
  const writes = [writer.write(1), writer.write(2)];
  log.push(`desiredSize after two writes ${writer.desiredSize}`);
  const reader = ts.readable.getReader();
  const r1 = await reader.read();
  log.push(`read ${r1.value}`);
  const r2 = await reader.read();
  log.push(`read ${r2.value}`);
  await Promise.all(writes);
  writer.close();
  const r3 = await reader.read();
  log.push(`done ${r3.done}`);
  console.log("order:", log.join(" | "));
}

async function errors() {
  const results = [];
  const attempt = (what, f) => {
    try {
      f();
      results.push(`${what}: ok`);
    } catch (e) {
      results.push(`${what}: ${e.constructor.name}`);
    }
  };
  attempt("locked getReader", () => { const s = new ReadableStream(); s.getReader(); s.getReader(); });
  attempt("bad highWaterMark", () => new WritableStream({}, { highWaterMark: -1 }));
  attempt("bad type", () => new ReadableStream({ type: "nope" }));
  attempt("byob on default stream", () => new ReadableStream().getReader({ mode: "byob" }));
  attempt("enqueue after close", () => new ReadableStream({ start(c) { c.close(); c.enqueue(1); } }));
  const stream = new ReadableStream({ start(c) { c.error(new RangeError("bad input")); } });
  try {
    await stream.getReader().read();
  } catch (e) {
    results.push(`errored read: ${e.name} ${e.message}`);
  }
  console.log("errors:", JSON.stringify(results));
}

(async () => {
  await logLines();
  await byteSource();
  await teeAndIterate();
  await aborted();
  await order();
  await errors();
})();
