"""The hook of tests/support/loop_watch, run by Python at the start of a controller child whose
PYTHONPATH holds this folder: with SHOWRUNNER_WATCH_LOOP=DIR set, every blocking network call
made on a thread while it runs an asyncio event loop is written to DIR/PID.jsonl with its stack.

A blocking call is a connect, send or receive on a socket whose timeout is not 0 (asyncio's own
sockets are non-blocking), an accept on one, or a name lookup. Only the call is looked at, not
how long it took: a Redis round trip on the same machine blocks for a tenth of a millisecond, and
no timing tells that from honest CPU work on the loop.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import traceback
from typing import Any

ENV = "SHOWRUNNER_WATCH_LOOP"
SOCKET_CALLS = ("connect", "connect_ex", "accept", "send", "sendall", "sendto", "sendmsg",
                "recv", "recv_into", "recvfrom", "recvfrom_into", "recvmsg")


def _peer(sock: socket.socket, call: str, args: tuple[Any, ...]) -> str:
    if call.startswith("connect"):
        return repr(args[0]) if args else "?"
    try:
        return repr(sock.getpeername())
    except OSError:
        return "none"


def install(directory: str) -> None:
    """Watch this process; its file says it is armed before anything else runs."""
    path = os.path.join(directory, f"{os.getpid()}.jsonl")
    seen: set[tuple[Any, ...]] = set()

    def write(record: dict[str, Any]) -> None:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")

    def blocked(call: str, detail: str) -> None:
        """Write down the first call from each place (a place calls again and again)."""
        frames = traceback.extract_stack()[:-2]  # without this function and the wrapper
        where = (call, *((f.filename, f.lineno) for f in frames))
        if where in seen:
            return
        seen.add(where)
        write({"call": call, "detail": detail, "thread": threading.current_thread().name,
               "stack": [[f.filename, f.lineno, f.name, f.line] for f in frames]})

    def watch(call: str) -> None:
        original = getattr(socket.socket, call)

        def watched(self: socket.socket, *args: Any, **kwargs: Any) -> Any:
            if asyncio.events._get_running_loop() is not None and self.gettimeout() != 0:
                blocked(call, f"timeout {self.gettimeout()}, peer {_peer(self, call, args)}")
            return original(self, *args, **kwargs)

        setattr(socket.socket, call, watched)

    def watch_lookup() -> None:
        original = socket.getaddrinfo

        def watched(*args: Any, **kwargs: Any) -> Any:
            if asyncio.events._get_running_loop() is not None:
                blocked("getaddrinfo", f"host {args[:2]!r}")
            return original(*args, **kwargs)

        socket.getaddrinfo = watched

    write({"armed": os.getpid()})
    for call in SOCKET_CALLS:
        watch(call)
    watch_lookup()


if __name__ == "sitecustomize" and os.environ.get(ENV):
    install(os.environ[ENV])
