"use strict";
// The echo server `hybrid-bench websocket` measures both clients against: node's `ws` server
// (Debian's node-ws) on 127.0.0.1, a port of its own, printed as "listening PORT".
const { WebSocketServer } = require("/usr/share/nodejs/ws");

const server = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
server.on("connection", (socket) => {
  socket.on("message", (data, isBinary) => socket.send(data, { binary: isBinary }));
});
server.on("listening", () => console.log(`listening ${server.address().port}`));
