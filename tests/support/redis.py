"""A real redis-server for the multi-process tests: its own port, its own temp dir, no disk.

Skipped with the reason when no `redis-server` binary exists, except under CI (`CI=1`, set by
.ci/run), where a missing server is a failure: the multi-process test must run there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.support.ports import free_port

START_S = 10.0



@pytest.fixture
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """redis://127.0.0.1:PORT/0 of a fresh redis-server, stopped after the test."""
    binary = shutil.which("redis-server")
    if binary is None:
        why = "no redis-server binary (scripts/setup installs Debian's redis-server)"
        if os.environ.get("CI") == "1":
            pytest.fail(f"{why}; CI must run the multi-process test")
        pytest.skip(why)
    workdir: Path = tmp_path_factory.mktemp("redis")
    port = free_port()
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
         "--save", "", "--appendonly", "no"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        _wait_for(url, server)
        yield url
    finally:
        server.terminate()
        server.wait(10)


def _wait_for(url: str, server: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + START_S
    client = redis.Redis.from_url(url)
    while True:
        try:
            client.ping()
            return
        except redis.ConnectionError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError("redis-server did not start:\n"
                                   + (server.stdout.read() if server.stdout else "")) from None
            time.sleep(0.05)
