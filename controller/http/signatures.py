"""Signature images over HTTP: `POST /signatures` receives one from the console's pad, and
`GET /signatures/<sha256>.png` shows it again to an operator or an auditor.

A signature is personal information (docs/signatures.md): only a logged-in operator or auditor
(session cookie) or an operator's or auditor's key (key header) may send or see one; a
technician, an announcer or a screen's key is refused. The body is read with a cap and a
deadline (controller/http/bodies.py) and checked with Pillow before anything is kept: PNG,
decodes, within the sizes of controller/domain/signatures.py, at least MIN_STROKES pen strokes
(the pad's count, header `X-Signature-Strokes`) and enough ink (MIN_INK_WIDTH x
MIN_INK_HEIGHT). A refusal keeps nothing.
The image is then kept by its SHA-256 (controller/store/signatures.py) and the answer is the
reference a command carries (`SignatureRef`).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import re
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web
from PIL import Image, ImageChops, UnidentifiedImageError

from controller.domain.errors import Rejected, refusal
from controller.domain.signatures import (
    MAX_HEIGHT,
    MAX_SIGNATURE_BYTES,
    MAX_WIDTH,
    MIN_HEIGHT,
    MIN_STROKES,
    MIN_WIDTH,
)
from controller.http.bodies import SlowBody, read_capped, too_slow_refusal
from controller.http.callers import caller
from controller.store.log import StoredLog
from controller.store.signatures import StoredSignature
from controller.store.sqlite import StorageUnavailable

STROKES_HEADER = "X-Signature-Strokes"
READERS = frozenset({"operator", "auditor"})
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
#: the smallest box the ink may span: a tap, a dot or a short dash is not a signature
MIN_INK_WIDTH, MIN_INK_HEIGHT = 40, 10
#: a pixel is ink when it is this opaque (alpha) and this dark (luminance), on a transparent
#: or a white background alike
INK_ALPHA, INK_LUMA = 64, 200
SHA_PATH = re.compile(r"[0-9a-f]{64}")
NOT_ALLOWED = "Only an operator or an auditor may send or see a signature."
LOG_IN = "Log in as an operator or an auditor (or send such a key) to send or see a signature."


@dataclass(frozen=True)
class Measured:
    """What the controller measured of a signature image it accepts."""

    width: int
    height: int
    strokes: int


def _too_large() -> Rejected:
    return Rejected("signature_too_large", f"The signature image is too large (the limit is "
                    f"{MAX_SIGNATURE_BYTES // 1024} KiB): clear the pad and sign again.")


def check_png(body: bytes, strokes_header: str | None) -> Measured:
    """The image's measures, or `Rejected` saying in words why it is no signature."""
    if not body:
        raise Rejected("signature_empty", "No signature was received: sign on the pad first.")
    if len(body) > MAX_SIGNATURE_BYTES:
        raise _too_large()
    if not body.startswith(PNG_MAGIC):
        raise Rejected("signature_not_png", "That is not a PNG image from the signature pad.")
    try:
        image = Image.open(io.BytesIO(body), formats=["PNG"])
        width, height = image.size
        if width > MAX_WIDTH or height > MAX_HEIGHT:  # checked before decoding any pixel
            raise Rejected("signature_too_large", f"The signature image is {width}x{height} "
                           f"pixels; the largest kept is {MAX_WIDTH}x{MAX_HEIGHT}.")
        image.load()
        pixels = image.convert("RGBA")
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise Rejected("signature_not_png", "The signature image is damaged (it does not "
                       "decode as a PNG): clear the pad and sign again.") from exc
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        raise Rejected("signature_too_small", f"The signature image is {width}x{height} "
                       f"pixels; it must be at least {MIN_WIDTH}x{MIN_HEIGHT}.")
    strokes = _strokes(strokes_header)
    opaque = pixels.getchannel("A").point(lambda v: 255 if v >= INK_ALPHA else 0)
    dark = pixels.convert("L").point(lambda v: 255 if v < INK_LUMA else 0)
    box = ImageChops.multiply(opaque, dark).getbbox()
    if box is None:
        raise Rejected("signature_empty", "The signature pad is empty: sign on it first.")
    if strokes < MIN_STROKES:
        raise Rejected("signature_trivial", f"That is {strokes} pen stroke; a signature needs "
                       f"at least {MIN_STROKES}. Clear the pad and sign again.")
    left, top, right, bottom = box
    if right - left < MIN_INK_WIDTH or bottom - top < MIN_INK_HEIGHT:
        raise Rejected("signature_trivial", "The signature is too small to be one (a dot or "
                       "a dash): clear the pad and sign across it.")
    return Measured(width, height, strokes)


def _strokes(header: str | None) -> int:
    if header is None or not header.strip().isdigit() or len(header.strip()) > 5:
        raise Rejected("signature_strokes", f"The pad did not say how many strokes were "
                       f"drawn (header {STROKES_HEADER}): reload the console and sign again.")
    return int(header.strip())


def add_signature_routes(app: web.Application, log_of: Callable[[web.Application], StoredLog],
                         clock: Callable[[web.Application], int]) -> None:
    """`log_of(app)`, `clock(app)`: the running controller's log and show clock."""

    async def who(request: web.Request) -> str:
        """The name of the operator or auditor asking; `Rejected` for anyone else (its HTTP
        status in `STATUS`)."""
        return await caller(request, log_of(request.app), READERS, LOG_IN, NOT_ALLOWED)

    async def receive(request: web.Request) -> web.Response:
        try:
            name = await who(request)
        except Rejected as exc:
            return web.json_response(exc.refusal(), status=STATUS[exc.code])
        if request.content_type != "image/png":  # and so no other site's form can post one
            return web.json_response(refusal(
                "signature_not_png", "Send the signature as a PNG image (image/png)."),
                status=415)
        try:
            body = await read_capped(request, MAX_SIGNATURE_BYTES)
        except SlowBody as exc:
            return too_slow_refusal(exc)
        try:
            if body is None:
                raise _too_large()
            measured = await asyncio.to_thread(check_png, body,
                                               request.headers.get(STROKES_HEADER))
        except Rejected as exc:
            return web.json_response(exc.refusal(),
                                     status=413 if exc.code == "signature_too_large" else 400)
        assert body is not None
        row = StoredSignature(hashlib.sha256(body).hexdigest(), "image/png", measured.width,
                              measured.height, measured.strokes, body, clock(request.app), name)
        try:
            kept = log_of(request.app).put_signature(row)
        except StorageUnavailable:
            return web.json_response(refusal(
                "storage_unavailable", "The signature cannot be kept (the show log cannot be "
                "written): tell the technician."), status=503)
        return web.json_response({"ok": True, "signature": kept.ref()})

    async def show(request: web.Request) -> web.Response:
        try:
            await who(request)
        except Rejected as exc:
            raise STATUS_ERRORS[exc.code](text=exc.message) from None
        sha = request.match_info["sha"]
        found = log_of(request.app).signature(sha) if SHA_PATH.fullmatch(sha) else None
        if found is None:
            raise web.HTTPNotFound(text="No signature is kept under that name.")
        return web.Response(body=found.png, content_type="image/png",
                            headers={"Cache-Control": "no-store"})

    app.router.add_post("/signatures", receive)
    app.router.add_get("/signatures/{sha}.png", show)


STATUS = {"not_logged_in": 401, "not_allowed": 403}
STATUS_ERRORS: dict[str, type[web.HTTPException]] = {
    "not_logged_in": web.HTTPUnauthorized, "not_allowed": web.HTTPForbidden}
