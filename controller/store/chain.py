"""What each row of the log's hash chain proves, by hash scheme.

Every events row names the scheme its hash was made under (`scheme` column), so rows keep
verifying the way they were written:

- scheme 1 (rows written before log format 3): the event alone. Version-1 events hash exactly as
  release 0.1 wrote them; from event version 2 the version is in the hashed body.
- scheme 2 (from log format 3): the event and, on the last row of each command, the digest of
  that command's ack (who sent it, its command id, its envelope digest and the ack itself), so an
  ack cannot be edited, removed or slipped in without breaking the chain. Key issuance and
  revocation are events (`KeyIssued`, `KeyRevoked`), covered like any other.

A scheme never goes down along the chain: a scheme-1 row after a scheme-2 row is a rewrite.
"""

from __future__ import annotations

import hashlib
import json
from json.encoder import encode_basestring
from typing import Any

GENESIS = "0" * 64
EVENTS_ONLY = 1
WITH_ACKS = 2
CURRENT_SCHEME = WITH_ACKS

COVERAGE = {
    EVENTS_ONLY: "the events only (their acks and the keys are not covered)",
    WITH_ACKS: "the events, each command's ack and every key issued or revoked",
}


def canonical_json(value: Any) -> str:
    """The one serialisation used for hashing: sorted keys, no spaces, UTF-8 kept, and strict
    JSON (NaN and Infinity raise ValueError: no browser could read them back)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def event_hash(prev_hash: str, seq: int, command_id: str, type_: str, version: int,
               data_json: str, actor: str, at_ms: int, scheme: int = EVENTS_ONLY,
               ack_hash: str | None = None) -> str:
    """The hash of one events row, linked to the previous row's hash."""
    if scheme == EVENTS_ONLY:
        fields: list[Any] = [seq, command_id, type_, data_json, actor, at_ms]
        if version != 1:
            fields.insert(3, version)
    elif scheme == WITH_ACKS:
        if _plain(seq, version, at_ms, command_id, type_, data_json, actor, ack_hash):
            # canonical_json of the fields, written out: a replay hashes every row, and
            # json.dumps's encoder set-up per call was a fifth of a full replay's check
            e = encode_basestring
            body = (f"[{scheme},{seq},{e(command_id)},{e(type_)},{version},{e(data_json)},"
                    f"{e(actor)},{at_ms},{'null' if ack_hash is None else e(ack_hash)}]")
            return hashlib.sha256((prev_hash + body).encode()).hexdigest()
        fields = [scheme, seq, command_id, type_, version, data_json, actor, at_ms, ack_hash]
    else:
        raise ValueError(f"unknown hash scheme {scheme}")
    body = canonical_json(fields)
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def _plain(seq: Any, version: Any, at_ms: Any, command_id: Any, type_: Any, data_json: Any,
           actor: Any, ack_hash: Any) -> bool:
    """Whether the fields are the plain ints and strings a row holds (anything else is left
    to json.dumps, so the hash never depends on which way it was made)."""
    return (type(seq) is int and type(version) is int and type(at_ms) is int
            and type(command_id) is str and type(type_) is str and type(data_json) is str
            and type(actor) is str and (ack_hash is None or type(ack_hash) is str))


def ack_digest(principal: str, command_id: str, digest: str | None, ack_json: str) -> str:
    """SHA-256 of one acks row, as hashed into its command's last event (scheme 2)."""
    return hashlib.sha256(
        canonical_json([principal, command_id, digest, ack_json]).encode()).hexdigest()
