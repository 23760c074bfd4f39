"""A leader in its own process, for the SIGSTOP test: `python -m tests.support.fenced_writer URL`.

It takes the lease, then renews it and writes one fenced row (its epoch, a count) in turn, as a
controller renews and appends; it prints `leading N` once and, when the fence or a renewal says
it no longer leads, `stepped down: WHY` and exits 0. A database error (its session cut while it
was frozen inside a write) is a step down too.
"""

from __future__ import annotations

import sys
import time

import psycopg

from controller.store.lease import Lease, NotLeader

LEASE_S = 1.0


def main(url: str) -> None:
    lease = Lease(url, "frozen", "http://frozen:8080", lease_s=LEASE_S)
    while lease.try_acquire() is None:
        time.sleep(0.1)
    print(f"leading {lease.epoch}", flush=True)
    log = psycopg.connect(url)
    Lease.prepare(log)
    count = 0
    try:
        while True:
            if not lease.renew():
                print("stepped down: the lease was taken", flush=True)
                return
            count += 1
            with log.transaction():
                lease.fence(log)
                log.execute("INSERT INTO writes (epoch, n) VALUES (%s, %s)", (lease.epoch, count))
            time.sleep(0.02)
    except NotLeader as exc:
        print(f"stepped down: {exc}", flush=True)
    except psycopg.Error as exc:
        print(f"stepped down: the log connection failed ({exc.__class__.__name__})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
