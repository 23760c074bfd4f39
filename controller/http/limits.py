"""How long a client may take to send a request, and how many connections it may hold open:
the settings of `serve`, `fanout` and `rehearse` (`--header-timeout`, `--body-timeout`,
`--connections-per-address`, `--max-connections`; docs/operations.md, "Slow and broken
clients"). A few broken clients (a body that never ends, headers a byte a second, hundreds of
half-sent requests) are cut, and cannot use up the controller's file descriptors.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass

from aiohttp import web

#: file descriptors kept for the controller's own work (the log, snapshots, media, Redis,
#: PostgreSQL, child processes) when the cap on connections comes from the open-file limit
RESERVED_FILES = 256
MIN_CONNECTIONS = 64


@dataclass(frozen=True)
class HttpLimits:
    """`header_s`: a request's line and headers must have arrived this long after the
    connection opened or its previous answer was sent (an idle kept-alive connection is closed
    then too); `body_s`: a body of the API, a login or a signature must have arrived whole this
    long after its headers, and an upload may pause no longer than this; `per_address`: open
    connections from one client address (a trusted proxy's are not counted); `connections`:
    open connections in all, 0 for the open-file limit less `RESERVED_FILES`."""

    header_s: float = 15.0
    body_s: float = 30.0
    per_address: int = 128
    connections: int = 0

    def total(self) -> int:
        """The cap on open connections in all."""
        if self.connections:
            return self.connections
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return 65536
        return max(MIN_CONNECTIONS, soft - RESERVED_FILES)


limits_key = web.AppKey("http_limits", HttpLimits)


def limits_of(app: web.Application) -> HttpLimits:
    """The app's limits (set by `serve` before it starts serving), else the defaults."""
    return app.get(limits_key) or HttpLimits()
