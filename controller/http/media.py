"""Media over HTTP: a technician adds a picture or a video (`POST /media`), anyone looking
after the floor reads the catalogue (`GET /media`), and a screen fetches a file by its SHA-256
with its own key (`GET /media/<sha256>`, HTTP ranges, so a cut download resumes).

The upload is streamed into the media store's folder and hashed as it comes, never held in
memory and never read past the limit; it is checked (not empty, a picture or video by its
name and its first bytes, a picture that opens) before it is filed under its SHA-256, and then
named by the `media.add` command in the uploader's name, so the log says who added what. A
refusal keeps nothing and answers 400 `{"error": sentence}`; an upload that pauses longer than
the body timeout (controller/http/limits.py) is cut with 408.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import BodyPartReader, web
from PIL import Image

from controller.access.keys import Principal
from controller.domain.errors import Rejected
from controller.http.bodies import SlowBody, too_slow
from controller.http.callers import caller, caller_principal, wrong_key
from controller.http.limits import limits_of
from controller.http.middleware import KEY_HEADER
from controller.http.shared import hub_key
from controller.realtime.hub import Hub
from controller.screens.media import MAX_MEDIA_BYTES, check_name
from controller.screens.views import AUTHORISED
from controller.store.media import SHA256, MediaStore, Upload, sniff
from showrunner.contract.media import PICTURE, VIDEO
from showrunner.video.probe import Unplayable, probe

SCREEN_HEADER = "X-Showrunner-Screen"
ADDERS = frozenset({"technician"})
READERS = frozenset({"technician", "operator", "auditor"})
MAX_NAME_FIELD = 1024
#: room for the multipart framing around the file itself
FRAMING_BYTES = 64 * 1024
CHUNK = 256 * 1024
LOG_IN = "Log in as a technician (or send a technician key) to add media."
NOT_ALLOWED = "Only technicians may add media."
READ_LOG_IN = "Log in (or send a technician, operator or auditor key) to see the media."
READ_NOT_ALLOWED = "Only technicians, operators and auditors may see the media."


class Refused(Exception):
    """Bad input: answered 400 with this sentence, and nothing is kept."""


def _too_large() -> Refused:
    return Refused(f"The file is larger than {MAX_MEDIA_BYTES // 2**20} MiB, the most a screen "
                   "is sent: make it smaller (a shorter or lower-bitrate video).")


def error(sentence: str, status: int = 400) -> web.Response:
    return web.json_response({"error": sentence}, status=status)


async def receive(request: web.Request, store: MediaStore) -> tuple[Upload, str]:
    """The uploaded file (field `file`) streamed into the store's folder, and the name it is
    added under (field `name`, else the file's own name). `Refused` says what is wrong."""
    if request.content_length is not None and \
            request.content_length > MAX_MEDIA_BYTES + FRAMING_BYTES:
        raise _too_large()
    if not request.content_type.startswith("multipart/"):
        raise Refused("Send the file as a form upload (multipart/form-data, field \"file\").")
    seconds = limits_of(request.app).body_s
    loop = asyncio.get_running_loop()
    upload: Upload | None = None
    name, filename = "", ""
    try:
        async with asyncio.timeout(loop.time() + seconds) as deadline:  # moved on as it comes
            async for part in await request.multipart():
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "name":
                    text = await part.read_chunk(MAX_NAME_FIELD + 1)
                    if len(text) > MAX_NAME_FIELD or await part.read_chunk(1):
                        raise Refused("The name is too long: give a file name like intro.mp4.")
                    name = text.decode("utf-8", "replace").strip()
                elif part.name == "file" and upload is None:
                    filename = Path(part.filename or "").name
                    upload = store.upload()
                    while chunk := await part.read_chunk(CHUNK):
                        deadline.reschedule(loop.time() + seconds)
                        upload.write(chunk)
                        if upload.size > MAX_MEDIA_BYTES:
                            raise _too_large()
                deadline.reschedule(loop.time() + seconds)
    except ValueError as exc:  # a form that does not parse (a bad boundary, a broken part)
        if upload is not None:
            upload.discard()
        raise Refused("The upload is not a readable form: send the file again.") from exc
    except TimeoutError:
        if upload is not None:
            upload.discard()
        raise SlowBody(f"The upload stopped: nothing arrived for {seconds:g} s, so nothing "
                       "was kept; send the file again.") from None
    except BaseException:
        if upload is not None:
            upload.discard()
        raise
    if upload is None:
        raise Refused("No file was sent: choose a picture or a video (form field \"file\").")
    upload.received()
    return upload, name or filename


def check_upload(upload: Upload, name: str) -> str:
    """The kind of the file, or `Refused`: not empty, named as a picture or a video, and
    its content that kind (a picture must open)."""
    if upload.size == 0:
        raise Refused(f"{name or 'The file'} is empty: choose the picture or video itself.")
    if not name:
        raise Refused("The file has no name: give it one (e.g. intro.mp4).")
    try:
        kind = check_name(name)
    except Rejected as exc:
        raise Refused(exc.message) from None
    found = sniff(upload.head)
    if found is None:
        raise Refused(f"{name!r} is not a picture (PNG, JPEG, WebP) or a video (MP4, MOV, MKV, "
                      "WebM) that screens can show.")
    if found != kind:
        raise Refused(f"{name!r} is named as a {kind} but the file is a {found}: give it the "
                      f"suffix of what it is.")
    return kind


def opens(path: Path) -> bool:
    """Whether Pillow opens the picture (its header and sizes; no pixel is decoded)."""
    try:
        with Image.open(path) as image:
            image.verify()
    except Exception:  # any reason a picture does not open: it is refused, in words
        return False
    return True


def plays(path: Path, name: str) -> None:
    """`Refused` unless a screen can play the video: its container and codec open and a first
    frame decodes (showrunner/video/probe.py, what `showrunner validate` asks of a file)."""
    try:
        probe(path)
    except Unplayable as exc:
        raise Refused(f"{name!r} cannot play on a screen: {exc}.") from None


def add_media_routes(app: web.Application) -> None:
    """The technicians' routes (the owner only) and the screens' fetch."""
    app.router.add_post("/media", add)
    app.router.add_get("/media", catalogue)
    add_fetch_route(app)


def add_fetch_route(app: web.Application,
                    catch_up: Callable[[Hub], Awaitable[object]] | None = None) -> None:
    """`GET /media/<sha256>` (the owner and every fan-out process: screens fetch where they
    connect). A fan-out process passes its `catch_up` with the owner's log, run before each
    fetch: a screen enrolled or a medium added there a moment ago is known at once."""
    if catch_up is None:
        app.router.add_get("/media/{sha}", fetch)
        return
    follow = catch_up

    async def fetch_caught_up(request: web.Request) -> web.StreamResponse:
        await follow(request.app[hub_key])
        return await fetch(request)

    app.router.add_get("/media/{sha}", fetch_caught_up)


async def add(request: web.Request) -> web.Response:
    hub = request.app[hub_key]
    try:
        principal = await caller_principal(request, hub.service.log, ADDERS, LOG_IN,
                                           NOT_ALLOWED)
    except Rejected as exc:
        return error(exc.message, 401 if exc.code == "not_logged_in" else 403)
    store = hub.service.media
    try:
        upload, name = await receive(request, store)
    except Refused as exc:
        return error(str(exc))
    except SlowBody as exc:
        return too_slow({"error": str(exc)})
    try:
        kind = check_upload(upload, name)
        if kind == PICTURE and not await asyncio.to_thread(opens, upload.path):
            raise Refused(f"{name!r} is damaged: it does not open as a picture.")
        if kind == VIDEO:
            await asyncio.to_thread(plays, upload.path, name)
        kept = await asyncio.to_thread(upload.keep, store)
    except Refused as exc:
        upload.discard()
        return error(str(exc))
    except OSError as exc:
        upload.discard()
        return error(f"The controller cannot keep the file ({exc.strerror}): tell the "
                     "technician (disk full?).", 503)
    return await _name(request, principal, name, kept.sha256, kept.size, kind)


async def _name(request: web.Request, principal: Principal, name: str, sha: str, size: int,
                kind: str) -> web.Response:
    """Send `media.add` for the kept file in the uploader's name (the same file again under
    the same name changes nothing and is answered alike)."""
    ack = await request.app[hub_key].execute(
        {"type": "media.add", "command_id": f"media:{uuid.uuid4().hex}",
         "payload": {"name": name, "upload": {"sha256": sha, "size": size, "kind": kind}}},
        principal)
    if not ack["ok"] and ack["error"]["code"] != "no_change":  # no_change: added already
        status = 503 if ack["error"]["code"] == "storage_unavailable" else 400
        return error(ack["error"]["message"], status)
    return web.json_response({"sha256": sha, "name": name, "size": size, "kind": kind})


async def catalogue(request: web.Request) -> web.Response:
    hub = request.app[hub_key]
    try:
        await caller(request, hub.service.log, READERS, READ_LOG_IN, READ_NOT_ALLOWED)
    except Rejected as exc:
        return error(exc.message, 401 if exc.code == "not_logged_in" else 403)
    return web.json_response(hub.screens.catalogue())


async def fetch(request: web.Request) -> web.StreamResponse:
    """A screen's own key and id (`X-Showrunner-Key`, `X-Showrunner-Screen`), an authorised
    screen; or a technician, operator or auditor. Ranges are answered (206)."""
    hub = request.app[hub_key]
    screen = request.headers.get(SCREEN_HEADER)
    if screen is not None:
        record, why = hub.screens.authenticate(screen, request.headers.get(KEY_HEADER))
        if record is None:
            raise web.HTTPForbidden(text=await wrong_key(request, why))
        if record.status != AUTHORISED:
            raise web.HTTPForbidden(text=f"Screen {screen!r} is not authorised yet.")
    else:
        try:
            await caller(request, hub.service.log, READERS, READ_LOG_IN, READ_NOT_ALLOWED)
        except Rejected as exc:
            raise web.HTTPForbidden(text=exc.message) from None
    sha = request.match_info["sha"]
    named = SHA256.fullmatch(sha) is not None and sha in hub.screens.media_files
    if named:  # added at another controller of a PostgreSQL log: copied down the first time
        await asyncio.to_thread(hub.service.media.bring, sha)
    if not named or hub.service.media.kept(sha) is None:
        raise web.HTTPNotFound(text="The controller holds no media with that SHA-256.")
    return web.FileResponse(hub.service.media.path(sha), headers={
        "Content-Type": "application/octet-stream",
        "Cache-Control": "private, max-age=31536000, immutable"})
