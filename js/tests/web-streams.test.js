// The Streams Standard's globals as H5 code meets them (js/web/streams.js). The web-platform-tests'
// streams/ holds the standard's own cases (scripts/wpt streams); these are what they cover
// thinly: long streams, error messages, the byte streams' buffer transfers, and the group's lazy
// install. WebStreamsTests runs a streaming app under hybrid and node and compares what each
// prints, and holds 100 MB through a TransformStream to a memory quota.

const collect = async (stream) => {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
};

describe("installed lazily", () => {
  test("every interface is a global accessor until read, then a Web IDL interface object", () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, "TransformStream");
    expect(typeof before.get).toBe("function");
    const names = ["ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamBYOBReader", "ReadableStreamDefaultController",
      "ReadableByteStreamController", "ReadableStreamBYOBRequest", "WritableStream", "WritableStreamDefaultWriter",
      "WritableStreamDefaultController", "TransformStream", "TransformStreamDefaultController", "ByteLengthQueuingStrategy",
      "CountQueuingStrategy"];
    for (const name of names) expect(typeof globalThis[name]).toBe("function");
    const after = Object.getOwnPropertyDescriptor(globalThis, "ReadableStream");
    expect([after.writable, after.enumerable, after.configurable]).toEqual([true, false, true]);
    expect(Object.keys(ReadableStream.prototype)).toEqual(["locked", "cancel", "getReader", "pipeThrough", "pipeTo", "tee", "values"]);
    expect(ReadableStream.prototype[Symbol.asyncIterator]).toBe(ReadableStream.prototype.values);
    expect(Object.prototype.toString.call(new WritableStream())).toBe("[object WritableStream]");
    expect(() => new ReadableStreamDefaultController()).toThrow(/Illegal constructor/);
  });

  test("streams cannot be cloned (the host has no MessagePort to transfer them to)", () => {
    expect(() => structuredClone(new ReadableStream())).toThrow(/could not be cloned/);
  });
});

describe("errors say what was expected", () => {
  test("bad constructor arguments name the member and what it must be", () => {
    expect(() => new ReadableStream({ pull: 5 })).toThrow("ReadableStream constructor: underlyingSource: pull must be a function, got number 5");
    expect(() => new ReadableStream({ type: "byte" })).toThrow(/underlyingSource.type must be "bytes" or undefined, got "byte"/);
    expect(() => new ReadableStream(null)).toThrow(/underlyingSource must be an object, got null/);
    expect(() => new ReadableStream({}, { highWaterMark: -1 })).toThrow(RangeError);
    expect(() => new ReadableStream({}, { highWaterMark: -1 })).toThrow(/highWaterMark must be a non-negative number, got -1/);
    expect(() => new ReadableStream({ type: "bytes" }, { size: () => 1 })).toThrow(/a byte stream's strategy cannot have a size function/);
    expect(() => new WritableStream({ type: "bytes" })).toThrow(RangeError);
    expect(() => new TransformStream({ transform: {} })).toThrow(/transformer: transform must be a function, got an object/);
    expect(() => new CountQueuingStrategy({})).toThrow(/init.highWaterMark is required/);
  });

  test("a locked stream, a released reader and a wrong `this` say so", async () => {
    const stream = new ReadableStream();
    const reader = stream.getReader();
    expect(() => stream.getReader()).toThrow(/locked to a reader already/);
    await expect(stream.cancel()).rejects.toThrow(/cannot cancel a stream that is locked/);
    reader.releaseLock();
    await expect(reader.read()).rejects.toThrow(/the reader has been released/);
    await expect(reader.closed).rejects.toThrow(/lock on the stream was released/);
    expect(() => ReadableStream.prototype.tee.call({})).toThrow("ReadableStream.prototype.tee: 'this' is not a ReadableStream");
    await expect(ReadableStream.prototype.pipeTo.call(new ReadableStream(), {})).rejects.toThrow(/destination must be a WritableStream, got an object/);
    expect(() => new ReadableStream().getReader({ mode: "BYOB" })).toThrow(/options.mode must be "byob" or undefined, got "BYOB"/);
    expect(() => new ReadableStream().getReader({ mode: "byob" })).toThrow(/a BYOB reader needs a readable byte stream/);
  });

  test("a size that is not a number errors the stream with a RangeError", async () => {
    let controller;
    const stream = new ReadableStream({ start(c) { controller = c; } }, { size: () => "x" });
    expect(() => controller.enqueue("a")).toThrow(/the size of a chunk must be a non-negative number, got x/);
    await expect(stream.getReader().closed).rejects.toThrow(RangeError);
  });
});

describe("long streams", () => {
  test("a million chunks queued, then read: the queue costs O(1) a chunk", async () => {
    const count = 1_000_000;
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < count; i++) controller.enqueue(i);
        controller.close();
      },
    }, { highWaterMark: Infinity });
    const reader = stream.getReader();
    let sum = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      sum += value;
    }
    expect(sum).toBe((count * (count - 1)) / 2);
  });

  test("20 MB through two TransformStreams and a WritableStream arrives whole and in order", async () => {
    const chunkSize = 64 * 1024;
    const chunks = 320;
    let sent = 0;
    const source = new ReadableStream({
      pull(controller) {
        if (sent === chunks) return controller.close();
        const chunk = new Uint8Array(chunkSize).fill(sent & 0xff);
        sent++;
        controller.enqueue(chunk);
      },
    });
    const order = [];
    let bytes = 0;
    const halve = new TransformStream({
      transform(chunk, controller) {
        controller.enqueue(chunk.subarray(0, chunkSize / 2));
        controller.enqueue(chunk.subarray(chunkSize / 2));
      },
    });
    await source.pipeThrough(halve).pipeThrough(new TransformStream()).pipeTo(new WritableStream({
      write(chunk) {
        bytes += chunk.byteLength;
        order.push(chunk[0]);
      },
    }, new ByteLengthQueuingStrategy({ highWaterMark: chunkSize })));
    expect(bytes).toBe(chunkSize * chunks);
    expect(order.length).toBe(chunks * 2);
    expect(order.every((first, i) => first === (i >> 1) % 256)).toBe(true);
  });

  test("backpressure: a slow sink holds the source to its high-water marks", async () => {
    let pulled = 0;
    let written = 0;
    let most = 0;
    const source = new ReadableStream({
      pull(controller) {
        pulled++;
        most = Math.max(most, pulled - written);
        if (pulled > 200) controller.close();
        else controller.enqueue(pulled);
      },
    }, new CountQueuingStrategy({ highWaterMark: 2 }));
    await source.pipeTo(new WritableStream({
      async write() {
        await new Promise((resolve) => setTimeout(resolve, 0));
        written++;
      },
    }, new CountQueuingStrategy({ highWaterMark: 2 })));
    expect(written).toBe(200);
    expect(most <= 6).toBe(true);
  });
});

describe("byte streams", () => {
  test("enqueue() and a BYOB read transfer the buffers: the views given are detached", async () => {
    let controller;
    const stream = new ReadableStream({ type: "bytes", start(c) { controller = c; } });
    const chunk = new Uint8Array([1, 2, 3, 4]);
    controller.enqueue(chunk);
    expect(chunk.byteLength).toBe(0);
    expect(chunk.buffer.detached).toBe(true);
    const reader = stream.getReader({ mode: "byob" });
    const mine = new Uint8Array(8);
    const { value, done } = await reader.read(mine);
    expect(done).toBe(false);
    expect(Array.from(value)).toEqual([1, 2, 3, 4]);
    expect(value.buffer.byteLength).toBe(8);
    expect(mine.byteLength).toBe(0);
  });

  test("a pull source fills the reader's own buffer through byobRequest; read({ min }) waits for enough", async () => {
    let next = 0;
    const stream = new ReadableStream({
      type: "bytes",
      pull(controller) {
        const view = controller.byobRequest.view;
        view[0] = next++;
        controller.byobRequest.respond(1);
      },
    });
    const reader = stream.getReader({ mode: "byob" });
    const { value } = await reader.read(new Uint8Array(4), { min: 3 });
    expect(Array.from(value)).toEqual([0, 1, 2]);
    await expect(reader.read(new Uint16Array(2), { min: 3 })).rejects.toThrow(RangeError);
  });

  test("autoAllocateChunkSize gives a default reader's reads a buffer to fill", async () => {
    const stream = new ReadableStream({
      type: "bytes",
      autoAllocateChunkSize: 16,
      pull(controller) {
        expect(controller.byobRequest.view.byteLength).toBe(16);
        controller.byobRequest.view.set([7, 8]);
        controller.byobRequest.respond(2);
        controller.close();
      },
    });
    const chunks = await collect(stream);
    expect(chunks.map((c) => Array.from(c))).toEqual([[7, 8]]);
  });

  test("tee() of a byte stream gives each branch its own copy, and a branch may be read with a BYOB reader", async () => {
    const stream = new ReadableStream({
      type: "bytes",
      start(controller) {
        controller.enqueue(new Uint8Array([1, 2]));
        controller.enqueue(new Uint8Array([3]));
        controller.close();
      },
    });
    const [a, b] = stream.tee();
    const byob = b.getReader({ mode: "byob" });
    const [fromA, first] = await Promise.all([collect(a), byob.read(new Uint8Array(4))]);
    expect(fromA.map((c) => Array.from(c))).toEqual([[1, 2], [3]]);
    expect(Array.from(first.value)).toEqual([1, 2]);
    expect(first.value.buffer === fromA[0].buffer).toBe(false);
  });
});

describe("pipes, iteration, from()", () => {
  test("pipeTo() with a signal: aborting cancels the source and aborts the destination with the reason", async () => {
    const controller = new AbortController();
    let canceled;
    let aborted;
    const source = new ReadableStream({ pull: (c) => c.enqueue("x"), cancel: (reason) => { canceled = reason; } });
    let written = 0;
    const destination = new WritableStream({
      write() {
        if (++written === 3) controller.abort(new Error("stop"));
      },
      abort: (reason) => { aborted = reason; },
    });
    await expect(source.pipeTo(destination, { signal: controller.signal })).rejects.toThrow("stop");
    expect([written, source.locked, destination.locked]).toEqual([3, false, false]);
    expect([canceled.message, aborted.message]).toEqual(["stop", "stop"]);
  });

  test("breaking out of for await cancels the stream unless preventCancel is given", async () => {
    let cancels = 0;
    const make = () => new ReadableStream({ pull: (c) => c.enqueue(1), cancel: () => { cancels++; } });
    for await (const chunk of make()) break;
    expect(cancels).toBe(1);
    const kept = make();
    for await (const chunk of kept.values({ preventCancel: true })) break;
    expect([cancels, kept.locked]).toEqual([1, false]);
  });

  test("ReadableStream.from() takes async and sync iterables; a sync iterable's promises are awaited", async () => {
    async function* numbers() { yield 1; yield 2; }
    expect(await collect(ReadableStream.from(numbers()))).toEqual([1, 2]);
    expect(await collect(ReadableStream.from([Promise.resolve("a"), "b"]))).toEqual(["a", "b"]);
    expect(() => ReadableStream.from({})).toThrow(/neither an async iterable nor an iterable/);
  });

  test("a transformer's cancel() runs when the readable side is canceled, and the writable side errors with the reason", async () => {
    let reason;
    const transform = new TransformStream({ cancel(r) { reason = r; } });
    await transform.readable.cancel("enough");
    expect(reason).toBe("enough");
    await expect(transform.writable.getWriter().closed).rejects.toBe("enough");
  });

  test("WritableStreamDefaultController.signal is aborted with abort()'s reason", async () => {
    let signal;
    const stream = new WritableStream({ start(c) { signal = c.signal; }, write: () => new Promise(() => {}) });
    const writer = stream.getWriter();
    writer.write("never finishes").catch(() => {});
    writer.abort("why").catch(() => {});
    expect([signal.aborted, signal.reason]).toEqual([true, "why"]);
  });
});
