"""Who is connected as whom, so that a revoked principal's live sessions can be cut at once.

A principal is the id its key gives (`key:<sha256>`, controller/store/principal_ids.py) or, for
a floor screen, `screen:<id>` (a screen's key changes when it is enrolled again; its id does
not).
"""

from __future__ import annotations


def screen_principal(screen: str) -> str:
    return f"screen:{screen}"


class Sessions:
    def __init__(self) -> None:
        self._by_principal: dict[str, set[tuple[str, str]]] = {}

    def add(self, principal: str, namespace: str, sid: str) -> None:
        self._by_principal.setdefault(principal, set()).add((namespace, sid))

    def remove(self, principal: str, namespace: str, sid: str) -> None:
        held = self._by_principal.get(principal)
        if held is not None:
            held.discard((namespace, sid))
            if not held:
                del self._by_principal[principal]

    def of(self, principal: str) -> list[tuple[str, str]]:
        """(namespace, sid) of every live session authenticated as `principal`."""
        return sorted(self._by_principal.get(principal, ()))
