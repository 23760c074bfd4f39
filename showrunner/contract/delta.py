"""A view's change as a small delta, and applying it: one definition for both sides.

A score change touches one row of a 1.2 KB leaderboard; sending the whole document to every
screen on every change is most of the fan-out's bytes. A delta names what differs between the
document a client holds (revision `base`) and the new one (docs/protocol.md, "Deltas"):

    {"set": {key: value}, "drop": [key], "rows": {key: {"length": n, "at": [[index, row]]}}}

`set`: top-level keys whose value is new or changed (other than a list held on both sides);
`drop`: top-level keys removed; `rows`: a list held on both sides, as its new length and the
items that differ (or are new) by index. Equality is strict (1, 1.0 and true differ), so the
patched document is exactly the new one.
"""

from __future__ import annotations

from typing import Any

Doc = dict[str, Any]


def same(a: Any, b: Any) -> bool:
    """JSON equality that tells 1, 1.0 and True apart (Python's == does not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def diff(old: Doc, new: Doc) -> Doc:
    """The delta that turns `old` into `new`."""
    changed: Doc = {}
    rows: Doc = {}
    for key, value in new.items():
        before = old.get(key, _MISSING)
        if before is not _MISSING and same(before, value):
            continue
        if isinstance(before, list) and isinstance(value, list):
            rows[key] = {"length": len(value), "at": [
                [i, item] for i, item in enumerate(value)
                if i >= len(before) or not same(before[i], item)]}
        else:
            changed[key] = value
    delta: Doc = {}
    if changed:
        delta["set"] = changed
    dropped = [key for key in old if key not in new]
    if dropped:
        delta["drop"] = dropped
    if rows:
        delta["rows"] = rows
    return delta


def patch(old: Doc, delta: Doc) -> Doc:
    """`old` with `delta` applied: a new document; `old` is not changed. Raises ValueError
    for a delta that does not fit `old` (the client then asks for the whole view)."""
    try:
        doc = {key: value for key, value in old.items() if key not in delta.get("drop", ())}
        doc.update(delta.get("set", {}))
        for key, change in delta.get("rows", {}).items():
            length = change["length"]
            items = list(old[key][:length])
            items.extend([None] * (length - len(items)))
            for index, item in change["at"]:
                items[index] = item
            doc[key] = items
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"the delta does not fit the view held: {exc!r}") from exc
    return doc


_MISSING = object()
