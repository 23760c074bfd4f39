"""Signature images for tests, drawn with Pillow as the console's pad would export them, and
sent through the real `POST /signatures` of a running controller."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
from PIL import Image, ImageDraw

STROKES = [[(40, 150), (120, 60), (200, 140), (260, 50)],
           [(300, 150), (380, 70), (460, 150), (540, 90)]]


def signature_png(strokes: list[list[tuple[int, int]]] | None = None,
                  size: tuple[int, int] = (600, 200), seed: int = 0) -> bytes:
    """A transparent PNG with each stroke drawn in dark ink (`seed` shifts it: another image)."""
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for stroke in STROKES if strokes is None else strokes:
        draw.line([(x + seed, y) for x, y in stroke], fill=(17, 17, 51, 255), width=4)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


async def post_signature(url: str, key: str, body: bytes, strokes: int | None = 2,
                         content_type: str = "image/png") -> tuple[int, dict[str, Any]]:
    """POST /signatures with an operator's or auditor's key; (status, answer)."""
    headers = {"X-Showrunner-Key": key, "Content-Type": content_type}
    if strokes is not None:
        headers["X-Signature-Strokes"] = str(strokes)
    async with aiohttp.ClientSession() as http, http.post(f"{url}/signatures", data=body,
                                                          headers=headers) as answer:
        return answer.status, await answer.json()


async def signed(url: str, key: str, seed: int = 0) -> dict[str, Any]:
    """A signature received by the controller: the reference a command carries."""
    status, answer = await post_signature(url, key, signature_png(seed=seed))
    assert status == 200 and answer["ok"], answer
    return answer["signature"]
