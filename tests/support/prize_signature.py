"""The winner's signature for register tests that pay prizes on a real log or controller.

The service pays only with a signature its store keeps (helper "sig": `POST /signatures`, the
log's `signatures` table, docs/signatures.md). These helpers keep one the way that route
does, so a payment reaches the register's own rules; where the store is not there (a branch
built before it) the same reference is all a payment needs.
"""

from __future__ import annotations

import hashlib
import importlib
import io
from typing import Any

import aiohttp
from PIL import Image, ImageDraw

WIDTH, HEIGHT, STROKES = 600, 200, 2


def png() -> bytes:
    """Two dark strokes on a transparent pad, as the console's pad exports them."""
    image = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for y in (70, 140):
        draw.line([(40, y), (200, y - 40), (360, y + 20), (560, y - 30)], fill=(17, 17, 51, 255),
                  width=4)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def reference(body: bytes) -> dict[str, Any]:
    return {"sha256": hashlib.sha256(body).hexdigest(), "media_type": "image/png",
            "bytes": len(body), "width": WIDTH, "height": HEIGHT, "strokes": STROKES}


def kept_signature(log: Any, at_ms: int) -> dict[str, Any]:
    """A signature kept in `log`'s store as `POST /signatures` keeps it; its reference."""
    body = png()
    ref = reference(body)
    try:
        table = importlib.import_module("controller.store.signatures")
    except ModuleNotFoundError:  # no signature store on this branch
        return ref
    log.put_signature(table.StoredSignature(ref["sha256"], "image/png", WIDTH, HEIGHT, STROKES,
                                            body, at_ms, "operator-1"))
    return ref


async def posted_signature(url: str, key: str) -> dict[str, Any]:
    """A signature received by a running controller's `POST /signatures`; its reference."""
    body = png()
    headers = {"X-Showrunner-Key": key, "Content-Type": "image/png",
               "X-Signature-Strokes": str(STROKES)}
    async with aiohttp.ClientSession() as http, http.post(f"{url}/signatures", data=body,
                                                          headers=headers) as answer:
        if answer.status == 404:  # no signature store on this branch
            return reference(body)
        found = await answer.json()
    assert found["ok"], found
    return found["signature"]
