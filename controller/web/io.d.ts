// The socket.io client is a classic script from /vendor/socket.io.min.js (not a module): its
// global `io`, typed from the npm package the controller serves it from.
declare const io: typeof import("socket.io-client").io;
