"use strict";
// WebSocket echoes over loopback against Benchmarks/web/websocket-echo.js (node's `ws` server, in
// a process of its own), the same file under node (Debian's `ws` client: node 20 has no global
// WebSocket) and under `hybrid run` (an app folder whose app.json grants network:127.0.0.1):
//   node Benchmarks/web/websocket.js echo URL [messages] [inFlight] [bytes]
//   hybrid run APP -- echo URL [messages] [inFlight] [bytes]
// echo: `messages` text messages of `bytes` bytes each, `inFlight` sent ahead of their echoes; a
// warm-up burst, then 3 timed ones; one op is one message sent and its echo received.
const { args } = require("./measure.js");

const [workload, url] = args;
const count = Number(args[2] ?? 20000);
const inFlight = Number(args[3] ?? 64);
const size = Number(args[4] ?? 32);
const Socket = typeof WebSocket === "function" ? WebSocket : require("/usr/share/nodejs/ws");

function open() {
  return new Promise((resolve, reject) => {
    const socket = new Socket(url);
    socket.onopen = () => resolve(socket);
    socket.onerror = (event) => reject(new Error(`websocket.js: cannot open ${url}: ${event.message ?? event.cause?.message ?? "error"}`));
  });
}

// Sends `count` messages, at most `inFlight` ahead of the echoes, and resolves at the last echo.
function burst(socket, message) {
  return new Promise((resolve) => {
    let sent = 0;
    let received = 0;
    socket.onmessage = (event) => {
      if (event.data.length !== message.length) throw new Error(`websocket.js: an echo of ${event.data.length} characters, expected ${message.length}`);
      received++;
      if (received === count) resolve();
      else if (sent < count) {
        socket.send(message);
        sent++;
      }
    };
    for (; sent < Math.min(inFlight, count); sent++) socket.send(message);
  });
}

async function echo() {
  const socket = await open();
  const message = "x".repeat(size);
  await burst(socket, message);
  const start = performance.now();
  for (let round = 0; round < 3; round++) await burst(socket, message);
  const seconds = (performance.now() - start) / 1000;
  socket.close();
  console.log(JSON.stringify({ name: "echo", ops: 3 * count, seconds: +seconds.toFixed(4), check: 0 }));
}

if (workload !== "echo") throw new Error(`websocket.js: unknown workload ${JSON.stringify(workload)}; expected echo`);
echo();
