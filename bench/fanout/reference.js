// The minimal Node socket.io server bench/fanout.py compares the controller with: /display
// answers `sync` and receives broadcasts; on /control, `trigger` {bytes, revision} broadcasts a
// "views" message of exactly `bytes` bytes (as JSON) to every /display socket, then acks.
// Prints "listening on http://127.0.0.1:PORT" once it listens (port 0: a free one).
"use strict";

const http = require("node:http");
const { Server } = require("socket.io");

const VIEW = process.argv[2] || "leaderboard:slots";
const server = http.createServer();
const io = new Server(server, { serveClient: false, transports: ["websocket"] });

io.of("/display").on("connection", (socket) => {
  socket.on("sync", (_data, ack) => ack({ views: [] }));
});

function message(bytes, revision) {
  const build = (pad) => ({ views: [{ name: VIEW, revision, doc: { pad } }] });
  const empty = Buffer.byteLength(JSON.stringify(["views", build("")]));
  return build("x".repeat(Math.max(0, bytes - empty)));
}

io.of("/control").on("connection", (socket) => {
  socket.on("trigger", ({ bytes, revision }, ack) => {
    io.of("/display").emit("views", message(bytes, revision));
    ack({ ok: true });
  });
});

server.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
