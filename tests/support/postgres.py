"""A real PostgreSQL for the tests: a private cluster in a temporary directory, on a free port.

One cluster per test session (per xdist worker), made with Debian's `initdb` as an unprivileged
user (the `postgres` account when the tests run as root: PostgreSQL refuses root) and stopped at
the end; each test gets a database of its own (`postgres_url`). Skipped with the reason when no
server is installed, except under CI (`CI=1`, set by .ci/run), where that is a failure:
scripts/setup installs Debian's postgresql.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from tests.support.ports import free_port

START_S = 30.0


def server_binaries() -> Path | None:
    """The newest installed PostgreSQL's bin directory (Debian keeps it off PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None



@dataclass
class Cluster:
    """A running private cluster: its superuser's URL to `database`."""

    bin: Path
    data: Path
    port: int
    user: str
    process: subprocess.Popen[str]

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        # SIGQUIT: PostgreSQL's immediate shutdown: the cluster is thrown away after (a smart
        # shutdown, SIGTERM, waited out every worker's last 20 s for a connection left open,
        # and a fast one wrote a checkpoint of every test's database)
        self.process.send_signal(signal.SIGQUIT)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        if self.process.stdout:
            self.process.stdout.close()


def _as_user() -> tuple[str, int | None, int | None]:
    """(database superuser, uid, gid to run the server as): root runs it as `postgres`."""
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid()).pw_name, None, None
    account = pwd.getpwnam("postgres")
    return "postgres", account.pw_uid, account.pw_gid


def start_cluster(root: Path, durable: bool = True) -> Cluster:
    """A private cluster in `root`, started. `durable`: fsync on, as a venue's server runs
    (the benches); the tests' cluster runs without it (a test never outlives its machine, and
    each test's new database was a copy of the template forced to disk)."""
    binaries = server_binaries()
    if binaries is None:
        raise FileNotFoundError("no PostgreSQL server (scripts/setup installs Debian's postgresql)")
    user, uid, gid = _as_user()
    data = root / "data"
    data.mkdir(parents=True)
    if uid is not None and gid is not None:
        os.chown(root, uid, gid)
        os.chown(data, uid, gid)

    def as_owner() -> None:
        if uid is not None and gid is not None:
            os.setgid(gid)
            os.setuid(uid)

    subprocess.run([str(binaries / "initdb"), "-D", str(data), "-U", user, "-A", "trust",
                    "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
                   check=True, capture_output=True, text=True, preexec_fn=as_owner, cwd=root)
    port = free_port()
    process = subprocess.Popen(
        [str(binaries / "postgres"), "-D", str(data), "-p", str(port), "-h", "127.0.0.1",
         "-k", str(root), "-c", f"fsync={'on' if durable else 'off'}",
         "-c", "max_connections=100"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=as_owner,
        cwd=root)
    cluster = Cluster(binaries, data, port, user, process)
    deadline = time.monotonic() + START_S
    while True:
        try:
            with psycopg.connect(cluster.url(), connect_timeout=2):
                return cluster
        except psycopg.OperationalError:
            if process.poll() is not None or time.monotonic() > deadline:
                cluster.stop()
                output = process.stdout.read() if process.stdout else ""
                raise RuntimeError(f"PostgreSQL did not start:\n{output}") from None
            time.sleep(0.1)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    if server_binaries() is None:
        why = "no PostgreSQL server (scripts/setup installs Debian's postgresql)"
        if os.environ.get("CI") == "1":
            pytest.fail(f"{why}; CI must run the PostgreSQL tests")
        pytest.skip(why)
    # not under pytest's tmp_path: the server's own account must reach it
    root = Path(tempfile.mkdtemp(prefix="showrunner-pg-"))
    os.chmod(root, 0o755)
    cluster = start_cluster(root / "cluster", durable=False)
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_cluster: Cluster, tmp_path: Path,
                 monkeypatch: pytest.MonkeyPatch) -> str:
    """postgresql://... of a fresh database in the session's private cluster. The test runs in
    its tmp_path: the files beside a database's log (media, checkpoints, keys) are kept in the
    folder a process runs in, and must not land in the repository."""
    monkeypatch.chdir(tmp_path)
    return postgres_cluster.new_database()
