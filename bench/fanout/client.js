// Many /display clients in one Node process, driven by bench/fanout.py over stdin/stdout.
//
// stdin, one JSON object a line:
//   {"op": "connect", "url", "auths", "batch"}  open a socket per auth (each its own
//        WebSocket, `batch` connecting at a time), each calls `sync`; answers {"ready", "failed"}
//   {"op": "close"}  disconnect them all; answers {"closed"}
// stdout: those answers, and {"arrivals": [[socket, ms], ...], "bytes", "sample"} for every
// message that names the watched view (`ms` on the machine's wall clock, like Python's
// time.time() * 1000; `bytes` the size of one such message as JSON and `sample` its data,
// taken on one socket only, so that the reference server can broadcast the very same message).
"use strict";

const readline = require("node:readline");
const { performance } = require("node:perf_hooks");
const { io } = require("socket.io-client");

const VIEW = process.argv[2] || "leaderboard:slots";
const QUOTED = JSON.stringify(VIEW);
const FLUSH_MS = 20;

let sockets = [];
let arrivals = [];
let bytes = 0;
let sample = null;
let flushing = null;

const now = () => performance.timeOrigin + performance.now();
const say = (message) => process.stdout.write(JSON.stringify(message) + "\n");

// Whether a message names the view: a "views" push ({views: [{name}]}), a delta naming it by
// `name` or `view` (alone or in a list), or failing those any mention of it in the JSON.
function names(args) {
  for (const arg of args) {
    if (arg === null || typeof arg !== "object") continue;
    for (const list of [arg.views, arg.deltas, arg.changes]) {
      if (Array.isArray(list)) return list.some((v) => v && (v.name === VIEW || v.view === VIEW));
    }
    if (arg.name === VIEW || arg.view === VIEW) return true;
    if (JSON.stringify(arg).includes(QUOTED)) return true;
  }
  return false;
}

function flush() {
  flushing = null;
  say({ arrivals, bytes, sample });
  arrivals = [];
  sample = null;
}

function open(url, auth, index) {
  return new Promise((resolve) => {
    const socket = io(url + "/display", {
      auth, transports: ["websocket"], forceNew: true, reconnection: false, timeout: 20000,
    });
    socket.onAny((event, ...args) => {
      const t = now();
      if (!names(args)) return;
      if (index === 0) {
        bytes = Buffer.byteLength(JSON.stringify([event, ...args]));
        sample = args[0];
      }
      arrivals.push([index, t]);
      if (flushing === null) flushing = setTimeout(flush, FLUSH_MS);
    });
    socket.once("connect", async () => {
      try {
        await socket.timeout(20000).emitWithAck("sync", { revisions: {} });
        resolve(socket);
      } catch {
        socket.disconnect();
        resolve(null);
      }
    });
    socket.once("connect_error", () => { socket.disconnect(); resolve(null); });
  });
}

async function connect({ url, auths, batch }) {
  let failed = 0;
  for (let start = 0; start < auths.length; start += batch) {
    const opened = await Promise.all(
      auths.slice(start, start + batch).map((auth, i) => open(url, auth, start + i)));
    for (const socket of opened) {
      if (socket) sockets.push(socket); else failed += 1;
    }
  }
  say({ ready: sockets.length, failed });
}

function close() {
  for (const socket of sockets) socket.disconnect();
  sockets = [];
  say({ closed: true });
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const command = JSON.parse(line);
  if (command.op === "connect") connect(command);
  else if (command.op === "close") close();
});
lines.on("close", () => process.exit(0));
