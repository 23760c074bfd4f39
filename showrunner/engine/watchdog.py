"""systemd's notify protocol, spoken from the frame loop: READY=1 once the first frame is on
screen, then WATCHDOG=1 at half the watchdog interval. A frozen loop stops pinging, and
systemd (WatchdogSec= in deploy/showrunner-display@.service) restarts the display.

The protocol is one datagram to the socket named in NOTIFY_SOCKET ('@' = Linux abstract
namespace); no library needed. Without NOTIFY_SOCKET (not under systemd) this does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, address: str | None, interval_s: float | None) -> None:
        self.address = "\0" + address[1:] if address and address.startswith("@") else address
        self.every = interval_s / 2 if interval_s else None
        self.last_ping: float | None = None
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) if address else None

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Notifier:
        """As systemd starts a service: NOTIFY_SOCKET, and WATCHDOG_USEC for this process
        (WATCHDOG_PID, when set, must be ours)."""
        usec = env.get("WATCHDOG_USEC")
        pid = env.get("WATCHDOG_PID")
        mine = pid is None or pid == str(os.getpid())
        return cls(env.get("NOTIFY_SOCKET"), int(usec) / 1e6 if usec and mine else None)

    def send(self, message: str) -> None:
        if self.sock is None or self.address is None:
            return
        try:
            self.sock.sendto(message.encode(), self.address)
        except OSError as exc:  # systemd gone or restarting: the screen goes on
            log.warning("cannot notify systemd (%s)", exc)

    def ready(self) -> None:
        self.send("READY=1")

    def alive(self, now: float) -> None:
        """Called on every pass of the frame loop; pings at half the watchdog interval."""
        if self.every is None:
            return
        if self.last_ping is None or now - self.last_ping >= self.every:
            self.last_ping = now
            self.send("WATCHDOG=1")
