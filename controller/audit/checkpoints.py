"""Signed checkpoints: the chain anchored outside the database.

A checkpoint says "event `seq` of log `log` had hash `hash` at `at_ms`", signed with an Ed25519
key kept in its own file (never in the db). Checkpoints are appended, one JSON line each, to a
file an auditor copies and keeps, with the public key beside it. A forger with shell access can
recompute every hash in the db, but not the hashes in copies already taken: `verify` finds a
rewritten row (its hash no longer matches the checkpoint at its seq), a removed tail (the log
ends before a checkpoint's seq) and a forged checkpoint (its signature does not verify).
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from controller.store.chain import canonical_json
from controller.store.log import StoredLog

DOMAIN = "showrunner-checkpoint-1\n"  # signed before the body: a signature means nothing else
PUBLIC_SUFFIX = ".pub"
DEFAULT_EVERY = 100  # events between two checkpoints of a running controller


class CheckpointError(Exception):
    """A key or checkpoint file cannot be used; the message says why, for a technician."""


# -- keys -----------------------------------------------------------------------------------------
def keygen(path: Path) -> Path:
    """Create a private key file (mode 0600, refused if it exists) and its public key beside
    it (`<path>.pub`, for the auditor). Returns the public key's path."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise CheckpointError(f"{path} already exists; a signing key is never overwritten.") \
            from None
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    return export_public(key, public_path(path))


def public_path(private: Path) -> Path:
    return private.with_name(private.name + PUBLIC_SUFFIX)


def export_public(key: Ed25519PrivateKey, path: Path) -> Path:
    path.write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return path


def load_private(path: Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError) as exc:
        raise CheckpointError(f"{path}: not a readable checkpoint signing key ({exc}).") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise CheckpointError(f"{path}: not an Ed25519 key.")
    return key


def load_public(path: Path) -> Ed25519PublicKey:
    try:
        key = serialization.load_pem_public_key(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise CheckpointError(f"{path}: not a readable checkpoint public key ({exc}).") from exc
    if not isinstance(key, Ed25519PublicKey):
        raise CheckpointError(f"{path}: not an Ed25519 public key.")
    return key


def ensure_key(path: Path) -> Ed25519PrivateKey:
    """The signing key at `path`, created (with its public key) at first use."""
    if not path.exists():
        keygen(path)
    return load_private(path)


# -- writing --------------------------------------------------------------------------------------
def log_identity(log: StoredLog) -> str | None:
    """The log's identity (made when the file was first opened), so a checkpoint vouches for
    this log and no copy or replacement of it."""
    return log.log_id


def body(log_id: str | None, seq: int, hash_: str, at_ms: int) -> dict[str, Any]:
    return {"log": log_id, "seq": seq, "hash": hash_, "at_ms": at_ms}


def sign(key: Ed25519PrivateKey, fields: dict[str, Any]) -> dict[str, Any]:
    signature = key.sign((DOMAIN + canonical_json(fields)).encode())
    return {**fields, "signature": base64.b64encode(signature).decode()}


def write_checkpoint(log: StoredLog, key: Ed25519PrivateKey, path: Path, at_ms: int) -> dict:
    """Append a signed checkpoint of the log's last event to `path` (fsynced) and return it."""
    record = sign(key, body(log_identity(log), log.last_seq, log.last_hash, at_ms))
    with path.open("a", encoding="utf-8") as f:
        f.write(canonical_json(record) + "\n")
        f.flush()
        os.fsync(f.fileno())
    return record


@dataclass(frozen=True)
class Anchoring:
    """Where a running controller signs its checkpoints: key file, checkpoint file, interval."""

    key: Path
    path: Path
    every: int = DEFAULT_EVERY


class Checkpointer:
    """Checkpoints a running log every `every` events, and at start and clean shutdown."""

    def __init__(self, log: StoredLog, key: Ed25519PrivateKey, path: Path, every: int) -> None:
        self.log, self.key, self.path, self.every = log, key, path, every
        self.done = -1

    def maybe(self, at_ms: int) -> bool:
        if self.log.last_seq - max(self.done, 0) >= self.every:
            return self.now(at_ms)
        return False

    def now(self, at_ms: int) -> bool:
        """A checkpoint unless the last one already covers the log's end."""
        if self.log.last_seq == self.done:
            return False
        write_checkpoint(self.log, self.key, self.path, at_ms)
        self.done = self.log.last_seq
        return True


# -- verifying ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Anchor:
    """What the checkpoints prove: how many, and the latest (highest seq) one."""

    count: int
    seq: int
    at_ms: int


def verify(log: StoredLog, path: Path, public: Ed25519PublicKey
           ) -> tuple[Anchor | None, str | None]:
    """Check every checkpoint in `path` against its signature and the log: (what they anchor,
    None) or (None, the first problem as a sentence)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"checkpoint file {path} cannot be read ({exc})"
    identity = log_identity(log)
    best: Anchor | None = None
    count = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"checkpoint on line {number} of {path.name}"
        record = _parse(line)
        if record is None:
            return None, f"{where} is not a checkpoint (the file was damaged or edited)"
        fields = body(record["log"], record["seq"], record["hash"], record["at_ms"])
        try:
            public.verify(base64.b64decode(record["signature"], validate=True),
                          (DOMAIN + canonical_json(fields)).encode())
        except (InvalidSignature, ValueError):
            return None, (f"{where} has a signature that does not verify with the public key: "
                          "it was forged or altered")
        if identity is not None and record["log"] not in (None, identity):
            return None, f"{where} is of another log ({record['log']}), not this one"
        seq = record["seq"]
        if seq > log.last_seq:
            return None, (f"the log ends at event {log.last_seq} but the {where} vouches for "
                          f"event {seq}: events were removed from the end of the log")
        if seq > 0 and log.hash_at(seq) != record["hash"]:
            return None, (f"event {seq} does not match the {where}: the log was rewritten at "
                          f"or before event {seq}")
        count += 1
        if best is None or seq >= best.seq:
            best = Anchor(count, seq, record["at_ms"])
    if best is None:
        return None, f"checkpoint file {path} holds no checkpoint"
    return Anchor(count, best.seq, best.at_ms), None


def _parse(line: str) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or set(record) != {"log", "seq", "hash", "at_ms",
                                                       "signature"}:
        return None
    ok = (isinstance(record["seq"], int) and record["seq"] >= 0
          and isinstance(record["hash"], str) and isinstance(record["at_ms"], int)
          and isinstance(record["signature"], str)
          and (record["log"] is None or isinstance(record["log"], str)))
    return record if ok else None
