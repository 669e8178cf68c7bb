"use strict";
// Streams: MEGABYTES (default 100) of bytes in 64 KB chunks from a ReadableStream, piped through a
// TransformStream (which passes each chunk on) and a gzip CompressionStream, read to the end. One op
// is one megabyte, so ops/s is MB/s. `hybrid-bench web` also runs it with 1 MB and compares the two
// runs' peak resident memory: a pipe that keeps memory flat grows it by little more than its queues.
//   node Benchmarks/web/streams.js pipe-gzip [seconds] [megabytes]
//   .build/release/hybrid run Benchmarks/web/streams.js -- pipe-gzip [seconds] [megabytes]
const { args, measureAsync } = require("./measure.js");

const workload = args[0];
const seconds = Number(args[1] ?? 2);
const megabytes = Number(args[2] ?? 100);
const chunkSize = 64 << 10;
// Text-like bytes, so that gzip has work to do and does not just store.
const chunk = new TextEncoder().encode("order 1234, 2 x widget, shipped to 10 Downing St; ".repeat(chunkSize / 50 + 1)).subarray(0, chunkSize);

async function pipeOnce() {
  const chunks = (megabytes << 20) / chunkSize;
  let sent = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (sent++ < chunks) controller.enqueue(chunk.slice());
      else controller.close();
    },
  }, { highWaterMark: 4 });
  const compressed = source
    .pipeThrough(new TransformStream({ transform(piece, controller) { controller.enqueue(piece); } }))
    .pipeThrough(new CompressionStream("gzip"));
  let total = 0;
  for await (const piece of compressed) total += piece.byteLength;
  return total;
}

switch (workload) {
  case "pipe-gzip":
    measureAsync(workload, megabytes, async () => (await pipeOnce()) & 0xff, seconds, { megabytes });
    break;
  default:
    throw new Error(`streams.js: unknown workload ${JSON.stringify(workload)}; expected pipe-gzip`);
}
