"""More than one process on one show, through Redis (`--message-queue redis://HOST:PORT/N`).

The owner (`serve`) holds the log's writer lock, runs the rules and the clock, and emits every
changed view through python-socketio's `AsyncRedisManager`, so each process's screens get it.
Fan-out processes (`fanout`) follow the same SQLite log read-only for `sync`, keys and screen
status, and keep what screens report (telemetry) in Redis, where the owner reads it.
"""
