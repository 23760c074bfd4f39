"""A real filesystem that fills up or fails: a size-limited tmpfs, mounted for one test (root
only: skipped with the reason elsewhere)."""

from __future__ import annotations

import errno
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs: a filesystem that really fills up."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount_point)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a size-limited tmpfs here (needs root): {result.stderr}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=True)


def fill(directory: Path) -> Path:
    """Write a file until the filesystem is full; returns it (delete it to free the space)."""
    filler = directory / "filler"
    chunk = b"\0" * 4096
    with filler.open("wb", buffering=0) as f:
        try:
            while True:
                f.write(chunk)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def remount(mount_point: Path, mode: str) -> None:
    """The mounted disk made read-only ("ro": what a failing disk's filesystem does to itself)
    or writable again ("rw")."""
    subprocess.run(["mount", "-o", f"remount,{mode}", str(mount_point)], check=True,
                   capture_output=True, text=True)
