"""The chain's hash of a row is the SHA-256 of the previous hash and the canonical JSON of the
row's fields (controller/store/chain.py), however it is computed: the written-out fast path a
replay takes must give exactly what `canonical_json` gives, for any text a row may hold
(quotes, backslashes, control characters, non-ASCII; not lone surrogates, which no
UTF-8 row holds)."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from controller.store.chain import WITH_ACKS, canonical_json, event_hash

texts = st.text(st.characters(codec="utf-8"))
ints = st.integers(min_value=-(2**63), max_value=2**63 - 1)


@given(prev=texts, seq=ints, command_id=texts, type_=texts, version=ints, data_json=texts,
       actor=texts, at_ms=ints, ack_hash=st.none() | texts)
def test_a_rows_hash_is_that_of_its_canonical_json(prev, seq, command_id, type_, version,
                                                    data_json, actor, at_ms, ack_hash) -> None:
    body = canonical_json([WITH_ACKS, seq, command_id, type_, version, data_json, actor, at_ms,
                           ack_hash])
    assert event_hash(prev, seq, command_id, type_, version, data_json, actor, at_ms,
                      WITH_ACKS, ack_hash) == hashlib.sha256((prev + body).encode()).hexdigest()


def test_fields_of_other_types_hash_as_json_writes_them() -> None:
    # a bool is an int to Python but `true` to JSON: never the written-out path
    body = canonical_json([WITH_ACKS, 1, "c", "T", True, "{}", "a", 2.5, None])
    hashed = event_hash("0", 1, "c", "T", True, "{}", "a", 2.5, WITH_ACKS, None)  # type: ignore[arg-type]
    assert hashed == hashlib.sha256(("0" + body).encode()).hexdigest()
