"""A recorded night for the auditor's report: the Wild Card draw of tests/audit/test_audit.py,
its config, the auditor's certification, and a seat and a cash prize decided, the cash prize
paid against a signature; the signature image kept in the log's `signatures` table. On either
store (`db` is a `LogAt`).

The prize events are written by type name with the shapes agreed in docs (briefs, common.md),
as helper "prizes" records them.
"""

from __future__ import annotations

import hashlib
import io
import uuid
from typing import Any

from PIL import Image, ImageDraw

from controller.access.keys import Principal
from controller.application.features import build_features
from controller.application.service import Service
from controller.application.settings import shipped
from controller.application.show import Show
from controller.domain.config import PromotionConfigured
from controller.promotions.wildcard.config import WildcardConfig
from controller.store.log import StoredLog
from controller.store.signatures import StoredSignature
from controller.store.target import LogAt, open_log
from tests.audit.test_audit import record_show
from tests.promotions.wildcard_show import CLOSE

DAY_MS = 24 * 3600 * 1000
PAID_AT = CLOSE + DAY_MS  # the next day


def signature_png(lift: int = 0) -> bytes:
    """A pad's signature: two strokes on a transparent 400x150 canvas (`lift`: another
    person's, drawn higher)."""
    image = Image.new("RGBA", (400, 150), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    pen.line([(20, 110 - lift), (80, 30), (140, 120 - lift), (200, 40)], fill=(10, 10, 60, 255),
             width=4)
    pen.line([(220, 90 - lift), (300, 60), (380, 100 - lift)], fill=(10, 10, 60, 255), width=4)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def receipt_png() -> bytes:
    """The winner's signature on the receipt of the cash prize."""
    return signature_png(lift=25)


def keep_signature(db: LogAt, png: bytes) -> dict[str, Any]:
    """Store the image as `POST /signatures` does; its SignatureRef's data."""
    with open_log(db) as log:
        kept = log.put_signature(StoredSignature(hashlib.sha256(png).hexdigest(), "image/png",
                                                 400, 150, 2, png, PAID_AT, "mc-thabo"))
    return kept.ref()


def append(log: StoredLog, command_id: str, actor: str, at: int,
           events: list[tuple[str, int, dict[str, Any]]]) -> None:
    log.append(command_id, actor, at, events, {"ok": True}, principal=f"key:{actor}",
               digest=command_id)


def record_night(db: LogAt, prizes: bool = True) -> dict[str, Any]:
    """The night, certified by the auditor; with `prizes`, the prizes decided and one paid
    against the winner's signature (`receipt_png`). Returns the auditor's signature's data."""
    record_show(db)
    signature = keep_signature(db, signature_png())
    config = shipped("wildcard", WildcardConfig).to_data()
    with open_log(db) as log:
        append(log, "config", "controller", CLOSE - 3 * 3600 * 1000,
               [PromotionConfigured("wildcard", config).record()])
    ack = certify(db, "auditor", signature)
    assert ack["ok"], ack
    if not prizes:
        return signature
    receipt = keep_signature(db, receipt_png())
    with open_log(db) as log:
        append(log, "award", "controller", CLOSE + 130_000, [
            ("PrizeAwarded", 1, {"prize": "wildcard-seat-1", "promotion": "wildcard",
                                 "card": "1000004", "kind": "seat", "cents": 0,
                                 "seat": "Final", "what": "a seat in the Final",
                                 "rule": "41", "decided_ms": CLOSE + 130_000,
                                 "deadline_ms": CLOSE + 15 * DAY_MS}),
            ("PrizeAwarded", 1, {"prize": "wildcard-cash-1", "promotion": "wildcard",
                                 "card": "1000004", "kind": "cash", "cents": 150_000,
                                 "seat": None, "what": "Wild Card cash prize",
                                 "rule": "43", "decided_ms": CLOSE + 130_000,
                                 "deadline_ms": CLOSE + 15 * DAY_MS})])
        append(log, "pay", "mc-thabo", PAID_AT, [
            ("PrizePaid", 1, {"prize": "wildcard-cash-1", "card": "1000004", "cents": 150_000,
                              "method": "cash", "paid_by": "mc-thabo", "id_type": "SA ID",
                              "id_last4": "0123", "signature": receipt, "at_ms": PAID_AT})])
    return signature


def certify(db: LogAt, role: str, signature: dict[str, Any],
            period: tuple[str, str] = ("2024-01-18", "2024-01-19")) -> dict[str, Any]:
    """`audit.certify` sent by a person of `role` through the real service; its ack."""
    with open_log(db) as log:
        service = Service(log, Show(build_features()), lambda: PAID_AT + 3600_000)
        service.replay()
        ack, _, _ = service.execute(
            {"type": "audit.certify", "command_id": uuid.uuid4().hex, "payload": {
                "promotion": "wildcard", "period_from": period[0], "period_to": period[1],
                "statement": "I oversaw the Wild Card draw and certify this record as true.",
                "signature": signature}},
            Principal(role, f"ms-{role}", f"key:{role}"))
    return ack
