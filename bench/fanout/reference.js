// The minimal Node socket.io server bench/fanout.py compares the controller with: /display
// answers `sync` and receives broadcasts; on /control, `trigger` {message} broadcasts `message`
// as a "views" event to every /display socket, then acks. bench/fanout.py sends the very message
// the controller's clients received, so both servers' clients parse the same JSON.
// Prints "listening on http://127.0.0.1:PORT" once it listens (port 0: a free one).
"use strict";

const http = require("node:http");
const { Server } = require("socket.io");

const server = http.createServer();
const io = new Server(server, { serveClient: false, transports: ["websocket"] });

io.of("/display").on("connection", (socket) => {
  socket.on("sync", (_data, ack) => ack({ views: [] }));
});

io.of("/control").on("connection", (socket) => {
  socket.on("trigger", ({ message }, ack) => {
    io.of("/display").emit("views", message);
    ack({ ok: true });
  });
});

server.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
