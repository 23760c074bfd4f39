"""The independent auditor's certification of a promotion's record (CPA regulation 11).

South Africa's Consumer Protection Act regulation 11 asks the promoter to have an independent
accountant, auditor or attorney oversee and certify a competition. The auditor signs a
statement for one promotion and a period on the console; `AuditCertified` keeps who signed
(the logged-in auditor, never a name typed in), what, for which dates, and the signature's
SHA-256, so the hash chain proves it and the night's report (controller/audit/report.py)
carries it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, StrictStr

from controller.domain.commands import Command, Context, payload
from controller.domain.errors import Rejected
from controller.domain.events import DomainEvent
from controller.domain.feature import Feature, Handler
from controller.domain.signatures import SignatureRef
from showrunner.contract.fields import PRINTABLE, LocalDate

PromotionName = Literal["slots", "wildcard", "roulette", "poker", "super9"]
Statement = Annotated[StrictStr, Field(min_length=1, max_length=2000), PRINTABLE]


@dataclass(frozen=True)
class AuditCertified(DomainEvent, type_name="AuditCertified"):
    """`auditor` certified `promotion`'s record from `period_from` to `period_to` (ISO dates,
    the venue's calendar) with `statement`, signed (`signature`: the SignatureRef's data)."""

    auditor: str
    promotion: str
    period_from: str
    period_to: str
    statement: str
    signature: dict[str, Any]
    at_ms: int


@payload
class Certify:
    promotion: PromotionName
    period_from: LocalDate
    period_to: LocalDate
    statement: Statement
    signature: SignatureRef


class Certification(Feature):
    """Certifications as the log holds them; the report reads them by promotion."""

    name = "certification"

    def __init__(self) -> None:
        self.certified: list[AuditCertified] = []

    def commands(self) -> Iterable[Command[Any]]:
        return (Command("audit.certify", "auditor", Certify, self.certify,
                        "Certify a promotion's record for a period, with your signature."),)

    def handlers(self) -> Mapping[type[DomainEvent], Handler]:
        return {AuditCertified: self._certified}

    def certify(self, p: Certify, ctx: Context) -> list[DomainEvent]:
        if p.period_to < p.period_from:
            raise Rejected("bad_period", f"The period ends ({p.period_to.isoformat()}) before "
                                         f"it starts ({p.period_from.isoformat()}).")
        statement = " ".join(p.statement.split())
        if len(statement) < 10:
            raise Rejected("statement_required", "Write the statement you certify (at least "
                                                 "a sentence).")
        return [AuditCertified(ctx.actor, p.promotion, p.period_from.isoformat(),
                               p.period_to.isoformat(), statement, p.signature.data(),
                               ctx.now_ms)]

    def _certified(self, event: AuditCertified) -> Iterable[str]:
        self.certified.append(event)
        return ()
