// @grants network:127.0.0.1
// WebSocket against the echo server Tests/NetworkingTests starts (NetworkScriptTests passes its
// ws:// base URL as --arg): text and binary echoes in order, subprotocols, binaryType, close codes
// from either end, a dropped connection, a refused handshake, and bufferedAmount.
// Without a server URL, only the tests that need none run.

const base = Hybrid.args[0];
const live = (name, fn) => (base ? test : test.skip)(name, fn, 60000);

// The next event of `type` on `socket`.
const next = (socket, type) => new Promise((resolve) => socket.addEventListener(type, resolve, { once: true }));

test("the interface: constants, URLs, subprotocols and close()'s checks", () => {
  expect([WebSocket.CONNECTING, WebSocket.OPEN, WebSocket.CLOSING, WebSocket.CLOSED]).toEqual([0, 1, 2, 3]);
  expect(() => new WebSocket("ftp://127.0.0.1/")).toThrow(/scheme/);
  expect(() => new WebSocket("ws://127.0.0.1/#frag")).toThrow(/fragment/);
  expect(() => new WebSocket("ws://127.0.0.1/", ["a", "a"])).toThrow(/subprotocol/);
  expect(() => new WebSocket("ws://127.0.0.1/", "not a token")).toThrow(/subprotocol/);
  const event = new CloseEvent("close", { code: 4001, reason: "why", wasClean: true });
  expect([event.type, event.code, event.reason, event.wasClean]).toEqual(["close", 4001, "why", true]);
});

live("text and binary messages echo in order; the chosen subprotocol shows", async () => {
  const socket = new WebSocket(`${base}/echo`, ["chat", "echo.v2"]);
  expect(socket.readyState).toBe(WebSocket.CONNECTING);
  expect(() => socket.send("early")).toThrow(/CONNECTING/);
  await next(socket, "open");
  expect([socket.readyState, socket.protocol, socket.extensions, socket.url]).toEqual([WebSocket.OPEN, "echo.v2", "", `${base}/echo`]);
  socket.binaryType = "arraybuffer";
  const received = [];
  const all = new Promise((resolve) => {
    socket.onmessage = (event) => {
      received.push(typeof event.data === "string" ? event.data : Array.from(new Uint8Array(event.data)));
      if (received.length === 5) resolve();
    };
  });
  socket.send("héllo 😀");
  socket.send(new Uint8Array([1, 2, 3]));
  socket.send(new Blob([new Uint8Array([4, 5])]));
  socket.send(new Uint16Array([0x0201]).buffer);
  socket.send("last");
  // UTF-8 bytes for text: "héllo 😀" is 11.
  expect(socket.bufferedAmount).toBe(11 + 3 + 2 + 2 + 4);
  await all;
  expect(received).toEqual(["héllo 😀", [1, 2, 3], [4, 5], [1, 2], "last"]);
  expect(socket.bufferedAmount).toBe(0);
  socket.close(1000, "done");
  expect(socket.readyState).toBe(WebSocket.CLOSING);
  const closed = await next(socket, "close");
  expect([closed.code, closed.reason, closed.wasClean, socket.readyState]).toEqual([1000, "", true, WebSocket.CLOSED]);
});

live("binaryType blob gives Blobs", async () => {
  const socket = new WebSocket(`${base}/echo`);
  await next(socket, "open");
  expect(socket.binaryType).toBe("blob");
  socket.send(new Uint8Array([9, 8, 7]));
  const message = await next(socket, "message");
  expect(message.data instanceof Blob).toBe(true);
  expect(Array.from(new Uint8Array(await message.data.arrayBuffer()))).toEqual([9, 8, 7]);
  socket.close();
  await next(socket, "close");
});

live("the server's close codes reach the close event", async () => {
  for (const code of [1000, 1001, 1008, 1011, 4000, 4999]) {
    const socket = new WebSocket(`${base}/echo`);
    await next(socket, "open");
    socket.send(`close:${code}`);
    const closed = await next(socket, "close");
    expect([closed.code, closed.reason, closed.wasClean]).toEqual([code, `bye ${code}`, true]);
  }
  const early = new WebSocket(`${base}/close/4002`);
  const closed = await next(early, "close");
  expect([closed.code, closed.reason]).toEqual([4002, "bye 4002"]);
});

live("a dropped connection is an error, then a close with 1006", async () => {
  const socket = new WebSocket(`${base}/echo`);
  await next(socket, "open");
  let errors = 0;
  socket.onerror = () => { errors++; };
  socket.send("drop");
  const closed = await next(socket, "close");
  expect([closed.code, closed.wasClean, errors]).toEqual([1006, false, 1]);
  // What is sent after the close counts in bufferedAmount and goes nowhere. (A loaded machine
  // may deliver the close before "drop"'s send is counted as written: measure the growth.)
  const before = socket.bufferedAmount;
  socket.send("after");
  expect(socket.bufferedAmount - before).toBe(5);
});

live("a refused handshake, a subprotocol not offered and an ungranted host fail the socket", async () => {
  for (const url of [`${base}/refuse`, `${base}/wrong-protocol`]) {
    const socket = new WebSocket(url, "echo");
    // "error" and "close" come one right after the other: both are listened for first.
    const [error, closed] = await Promise.all([next(socket, "error"), next(socket, "close")]);
    expect(error.cause.code).toBe("E_FAILED");
    expect(error.cause.details.reason).toBe("handshake");
    expect([closed.code, closed.wasClean, socket.readyState]).toEqual([1006, false, WebSocket.CLOSED]);
  }
  const denied = new WebSocket("ws://example.invalid/");
  const error = await next(denied, "error");
  expect(error.cause.code).toBe("E_DENIED");
});

live("close() while connecting ends the socket without opening it", async () => {
  const socket = new WebSocket(`${base}/echo`);
  let opened = false, errors = 0;
  socket.onopen = () => { opened = true; };
  socket.onerror = () => { errors++; };
  socket.close();
  expect(socket.readyState).toBe(WebSocket.CLOSING);
  const closed = await next(socket, "close");
  expect([opened, errors, closed.code, closed.wasClean, socket.readyState]).toEqual([false, 1, 1006, false, WebSocket.CLOSED]);
});

// The messages of Tests/NetworkingTests/WebSocketEchoServer.swift's burst:N and mixed-burst:N.
const burstMessage = (index, mixed) =>
  mixed && index % 7 === 6 ? [index & 0xff, index >> 8] : `${index} "q" \\ \n\t\u0001\u2028 😀`;

for (const mixed of [false, true]) {
  live(`a ${mixed ? "mixed " : ""}burst that arrives while JS is busy comes out in order, each message its own MessageEvent`, async () => {
    const socket = new WebSocket(`${base}/echo`);
    socket.binaryType = "arraybuffer";
    await next(socket, "open");
    const count = 300;
    const received = [];
    let blocked = false;
    const all = new Promise((resolve) => {
      socket.onmessage = (event) => {
        expect(event instanceof MessageEvent).toBe(true);
        expect(event.origin).toBe(new URL(base).origin);
        received.push(typeof event.data === "string" ? event.data : Array.from(new Uint8Array(event.data)));
        // Held at the first message, while the rest of the burst arrives behind it.
        if (!blocked) {
          blocked = true;
          const until = performance.now() + 100;
          while (performance.now() < until);
        }
        if (received.length === count) resolve();
      };
    });
    socket.send(`${mixed ? "mixed-burst" : "burst"}:${count}`);
    await all;
    expect(received).toEqual(Array.from({ length: count }, (_, index) => burstMessage(index, mixed)));
    socket.close();
    await next(socket, "close");
  });
}

live("message events carry the time their batch reached JS: after the send, by the handler's clock, never going back", async () => {
  const socket = new WebSocket(`${base}/echo`);
  await next(socket, "open");
  const stamps = [];
  const events = [];
  const all = new Promise((resolve) => {
    socket.onmessage = (event) => {
      stamps.push([event.timeStamp, performance.now()]);
      events.push(event);
      if (events.length === 200) resolve();
    };
  });
  const sentAt = performance.now();
  for (let i = 0; i < 200; i++) socket.send(`${i}`);
  await all;
  expect(events.map((event) => event.data)).toEqual(Array.from({ length: 200 }, (_, i) => `${i}`));
  expect(stamps.every(([stamp, now]) => stamp >= sentAt && stamp <= now)).toBe(true);
  expect(stamps.every(([stamp], i) => i === 0 || stamp >= stamps[i - 1][0])).toBe(true);
  // Each event is a whole MessageEvent: its own isTrusted, origin and (empty, frozen) ports.
  const last = events.at(-1);
  expect([last instanceof MessageEvent, Object.getOwnPropertyNames(last).includes("isTrusted"), last.origin, last.ports.length, Object.isFrozen(last.ports)])
    .toEqual([true, true, new URL(base).origin, 0, true]);
  // An event the program makes in a handler takes the clock's time, not the batch's.
  const inHandler = new Promise((resolve) => {
    socket.onmessage = (event) => {
      const start = performance.now();
      while (performance.now() - start < 2) { /* let the clock move past the batch's time */ }
      resolve([event.timeStamp, new Event("x").timeStamp]);
    };
  });
  socket.send("one");
  const [batchTime, madeTime] = await inHandler;
  expect(madeTime - batchTime >= 2).toBe(true);
  socket.close();
  await next(socket, "close");
});

live("the sends of one turn echo in order, text that JSON escapes and a lone surrogate (as U+FFFD) among them", async () => {
  const socket = new WebSocket(`${base}/echo`);
  await next(socket, "open");
  const sent = Array.from({ length: 100 }, (_, index) => `${index} "q" \\ \n\u0001\u2028 😀`);
  sent.push("lone \ud800 surrogate");
  const received = [];
  const all = new Promise((resolve) => {
    socket.onmessage = (event) => {
      received.push(event.data);
      if (received.length === sent.length) resolve();
    };
  });
  for (const text of sent) socket.send(text);
  await all;
  expect(received).toEqual([...sent.slice(0, -1), "lone \ufffd surrogate"]);
  expect(socket.bufferedAmount).toBe(0);
  socket.close();
  await next(socket, "close");
});
