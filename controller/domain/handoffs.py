"""Events one feature emits for another to follow.

`WildcardFinalist` is emitted by the Wild Card draw when its winner becomes a finalist (claimed
in person, or from the decline-to-attend register); the Slots tournament follows it to complete
its final (rule 19) and, when `present` is false, seats that finalist last (rule 41). A
semi-finalist who wins passes their semi-final seat on (docs/draws.md), stamped with `at_ms`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.domain.events import DomainEvent


@dataclass(frozen=True)
class WildcardFinalist(DomainEvent, type_name="WildcardFinalist"):
    card: str
    present: bool
    at_ms: int = field(default=0, compare=False)  # when it was named (0 in older logs)
