"""The winner's signature for register tests that pay prizes through the real service: kept
in the log's store as `POST /signatures` keeps it (docs/signatures.md), since the service pays
only with a signature its store keeps."""

from __future__ import annotations

import hashlib
from typing import Any

from controller.store.signatures import StoredSignature
from tests.support.signatures import signature_png

WIDTH, HEIGHT, STROKES = 600, 200, 2  # signature_png's pad and strokes


def kept_signature(log: Any, at_ms: int) -> dict[str, Any]:
    """A signature kept in `log`'s store; the reference a payment carries."""
    body = signature_png()
    row = log.put_signature(StoredSignature(hashlib.sha256(body).hexdigest(), "image/png",
                                            WIDTH, HEIGHT, STROKES, body, at_ms, "operator-1"))
    return row.ref()
