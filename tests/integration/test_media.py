"""Media that travel, through a real controller over real HTTP (issue 27): a technician adds a
picture, a screen's cache fetches it with its own key, a download cut mid-way resumes from
where it was, a spoiled file is refused by its SHA-256 and fetched again, bad uploads are
refused in words and keep nothing, and a playlist waits on a real display until its media are
there while the screen keeps playing what it had."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from controller.application.child_process import ROOT
from controller.domain.keys import key_hash
from controller.http.media import SCREEN_HEADER
from controller.http.middleware import KEY_HEADER
from controller.store.target import LogAt, files_of
from showrunner.engine.mediacache import MediaCache, MediaTimings
from showrunner.video.clips import make_clip
from tests.support.live import LiveController, live_controller
from tests.support.media import MediaProxy, picture, upload
from tests.support.stores import by_hand

SCREEN_KEY = "secret-of-stage-1"


async def enrol_screen(ctl: LiveController, authorise: bool = True) -> None:
    async with ctl.client("technician") as tech:
        ack = await tech.send("screens.enrol", {"screen": "stage-1", "group": "stage",
                                                "key_hash": key_hash(SCREEN_KEY)})
        assert ack["ok"], ack
        if authorise:
            assert (await tech.send("screens.authorise", {"screen": "stage-1"}))["ok"]


async def until(predicate, timeout: float = 30.0, what: str = "the condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = await predicate() if asyncio.iscoroutinefunction(predicate) else predicate()
        if found:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def get(url: str, headers: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as got:
        return got.status, await got.read(), dict(got.headers)


def media_of(ctl: LiveController) -> Path:
    """The folder the controller keeps its media in: beside the log (DB.media)."""
    return Path(f"{files_of(ctl.db_path)}.media")


def media_events(db: LogAt) -> int:
    with by_hand(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM events WHERE type = 'MediaAdded'").fetchone()[0]


async def test_a_screen_fetches_media_resumes_a_cut_download_and_refuses_a_spoiled_file(
        tmp_path: Path, log_at) -> None:
    async with live_controller(log_at) as ctl:
        body = picture(noise=300)  # about 300 KiB: a download of several chunks
        status, added = await upload(ctl.url, ctl.keys["technician"], body, "promo.png")
        sha = hashlib.sha256(body).hexdigest()
        assert (status, added) == (200, {"sha256": sha, "name": "promo.png", "size": len(body),
                                         "kind": "picture"})
        assert (media_of(ctl) / sha).read_bytes() == body  # kept by its SHA-256
        status, listed, _ = await get(f"{ctl.url}/media", {KEY_HEADER: ctl.keys["technician"]})
        assert status == 200 and b'"name": "promo.png"' in listed
        await enrol_screen(ctl)

        screen = {KEY_HEADER: SCREEN_KEY, SCREEN_HEADER: "stage-1"}
        status, part, _ = await get(f"{ctl.url}/media/{sha}", {**screen,
                                                                     "Range": "bytes=100-199"})
        assert (status, part) == (206, body[100:200])  # ranges: a cut download can resume
        wrong = await get(f"{ctl.url}/media/{sha}", {**screen, KEY_HEADER: "not its key"})
        assert wrong[0] == 403 and b"Unknown or revoked key" in wrong[1]
        assert (await get(f"{ctl.url}/media/{sha}", {}))[0] == 403  # no key, no login
        assert (await get(f"{ctl.url}/media/{'0' * 64}", screen))[0] == 404

        cut_at = 50_000
        async with MediaProxy(ctl.url, modes=[f"cut:{cut_at}", "spoil"]) as proxy:
            cache = MediaCache(tmp_path / "cache", proxy.url, "stage-1", SCREEN_KEY,
                               timings=MediaTimings(retry_first_s=0.05))
            cache.want({sha: {"name": "promo.png", "size": len(body)}})
            assert cache.progress() == {"missing": ["promo.png"], "done_bytes": 0,
                                        "total_bytes": len(body)}
            cache.start()
            try:
                await until(lambda: cache.has(sha), what="the picture in the cache")
            finally:
                cache.stop()
        # cut after 50 000 bytes, resumed from there (and spoiled on the way), refused by
        # its hash, fetched again whole
        assert [(a.range, a.mode) for a in proxy.asked] == [
            (None, f"cut:{cut_at}"), (f"bytes={cut_at}-", "spoil"), (None, "pass")]
        assert (tmp_path / "cache" / sha).read_bytes() == body
        assert cache.progress() is None
        assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [sha]


async def test_a_pending_screen_is_not_sent_media(log_at) -> None:
    async with live_controller(log_at) as ctl:
        body = picture()
        await upload(ctl.url, ctl.keys["technician"], body, "promo.png")
        await enrol_screen(ctl, authorise=False)
        status, text, _ = await get(f"{ctl.url}/media/{hashlib.sha256(body).hexdigest()}",
                                    {KEY_HEADER: SCREEN_KEY, SCREEN_HEADER: "stage-1"})
        assert status == 403 and b"not authorised yet" in text


def too_large_upload(url: str, key: str) -> bytes:
    """A form upload that declares 2 GiB: answered before any of it is read."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(f"POST /media HTTP/1.1\r\nHost: {host}\r\n{KEY_HEADER}: {key}\r\n"
                     "Content-Type: multipart/form-data; boundary=x\r\n"
                     f"Content-Length: {2 * 2**30}\r\n\r\n--x\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = conn.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer


async def test_bad_uploads_are_refused_in_words_and_keep_nothing(tmp_path: Path, log_at) -> None:
    async with live_controller(log_at) as ctl:
        tech = ctl.keys["technician"]
        png = picture()
        cases = {
            "empty": (await upload(ctl.url, tech, b"", "promo.png"), 400, "is empty"),
            "unknown kind": (await upload(ctl.url, tech, b"hello", "notes.txt"), 400,
                             "neither a picture"),
            "a picture named as a video": (await upload(ctl.url, tech, png, "intro.mp4"), 400,
                                           "named as a video but the file is a picture"),
            "not a picture at all": (await upload(ctl.url, tech, b"GIF89a....", "a.png"), 400,
                                     "is not a picture (PNG, JPEG, WebP) or a video"),
            "a damaged picture": (await upload(ctl.url, tech, png[:60], "a.png"), 400,
                                  "is damaged"),
            "a folder in the name": (await upload(ctl.url, tech, png, "x.png", "../x.png"), 400,
                                     "without folders"),
            "no key": (await upload(ctl.url, None, png, "a.png"), 401, "Log in as a technician"),
            "an operator": (await upload(ctl.url, ctl.keys["operator"], png, "a.png"), 403,
                            "Only technicians may add media"),
        }
        for case, ((status, answer), wanted_status, words) in cases.items():
            assert status == wanted_status, (case, answer)
            assert words in answer["error"], (case, answer)
        clip = make_clip(tmp_path / "intro.mp4", frames=15).read_bytes()
        status, answer = await upload(ctl.url, tech, clip[:len(clip) // 3], "intro.mp4")
        assert status == 400 and answer["error"].startswith(
            "'intro.mp4' cannot play on a screen: "), answer  # a cut file: no frame decodes
        large = too_large_upload(ctl.url, tech)
        assert large.startswith(b"HTTP/1.1 400") and b"larger than 1024 MiB" in large
        assert media_events(ctl.db_path) == 0
        assert [p.name for p in media_of(ctl).iterdir()] == []
        status, listed, _ = await get(f"{ctl.url}/media", {KEY_HEADER: tech})
        assert (status, listed) == (200, b'{"media": []}')


async def test_the_same_file_twice_is_one_file_and_a_name_can_be_given(log_at) -> None:
    async with live_controller(log_at) as ctl:
        tech, png = ctl.keys["technician"], picture()
        first = await upload(ctl.url, tech, png, "promo.png")
        again = await upload(ctl.url, tech, png, "promo.png")
        named = await upload(ctl.url, tech, png, "upload.png", name="bar-promo.png")
        assert first == again and named[1]["name"] == "bar-promo.png"
        assert media_events(ctl.db_path) == 2  # promo.png once, then bar-promo.png
        assert len(list(media_of(ctl).iterdir())) == 1


def media_add(url: str, key_file: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", "media", "add", *args, "--url", url,
         "--key-file", str(key_file)], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "SHOWRUNNER_KEY": ""})


async def test_the_cli_adds_media_and_says_why_it_refuses(tmp_path: Path, log_at) -> None:
    async with live_controller(log_at) as ctl:
        key_file = tmp_path / "tech.key"
        key_file.write_text(ctl.keys["technician"] + "\n")
        key_file.chmod(0o600)
        path = tmp_path / "poster.png"
        path.write_bytes(picture((10, 120, 40)))
        done = await asyncio.to_thread(media_add, ctl.url, key_file, str(path), "--name",
                                       "lobby.png")
        sha = hashlib.sha256(path.read_bytes()).hexdigest()
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == (f"added lobby.png (picture, {path.stat().st_size} "
                                       f"bytes, sha256 {sha})")
        text = tmp_path / "notes.txt"
        text.write_text("not a picture")
        refused = await asyncio.to_thread(media_add, ctl.url, key_file, str(text))
        assert refused.returncode == 1
        assert refused.stderr.startswith("refused: 'notes.txt' is neither a picture")
        _, listed, _ = await get(f"{ctl.url}/media", {KEY_HEADER: ctl.keys["technician"]})
        assert b'"name": "lobby.png"' in listed and b"notes.txt" not in listed


V1 = """\
name: stage
scenes:
  - {scene: leaderboard, duration: 2s}
  - {scene: prize_table, duration: 2s}
"""
V2 = """\
name: stage
scenes:
  - scene: attract
    duration: 1h
    params: {images: [promo.png]}
"""


def start_display(ctl: LiveController, media_url: str, tmp: Path) -> subprocess.Popen[bytes]:
    key_file = tmp / "screen.key"
    key_file.write_text(SCREEN_KEY + "\n")
    key_file.chmod(0o600)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen(
        [sys.executable, "-m", "showrunner.cli", "display", "--controller", ctl.url,
         "--media-url", media_url, "--screen", "stage-1", "--key-file", str(key_file),
         "--state-dir", str(tmp / "screens"), "--size", "320x180"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def report(ctl: LiveController) -> dict[str, Any]:
    status, body, _ = await get(f"{ctl.url}/screens", {KEY_HEADER: ctl.keys["technician"]})
    assert status == 200
    return next(row for row in json.loads(body)["screens"] if row["screen"] == "stage-1")


@pytest.mark.timeout(180)
async def test_a_new_version_of_a_playlist_waits_for_its_media_and_then_plays(
        tmp_path: Path, log_at) -> None:
    async with live_controller(log_at) as ctl, ctl.client("technician") as tech:
        await enrol_screen(ctl)
        assert (await tech.send("playlists.assign", {"file": "stage.yaml", "yaml": V1,
                                                     "groups": ["stage"]}))["ok"]
        body = picture(noise=64)
        assert (await upload(ctl.url, ctl.keys["technician"], body, "promo.png"))[0] == 200
        async with MediaProxy(ctl.url, modes=["hold"]) as proxy:
            display = start_display(ctl, proxy.url, tmp_path)
            try:
                first = await until(_showing(ctl, {"leaderboard", "prize_table"}), 60,
                                    "the first version playing")
                ack = await tech.send("playlists.assign", {"file": "stage.yaml", "yaml": V2,
                                                           "groups": ["stage"]})
                assert ack["ok"], ack
                anchor = ack["events"][0]["data"]["anchor_ms"]
                assert ack["events"][0]["data"]["media"] == {"promo.png": {
                    "sha256": hashlib.sha256(body).hexdigest(), "size": len(body),
                    "kind": "picture"}}
                # past the new version's start, the screen still plays the old one and says
                # what it waits for
                waiting = await until(_waiting(ctl, anchor), 30, "the screen waiting")
                assert waiting["media"] == {"missing": ["promo.png"], "done_bytes": 0,
                                            "total_bytes": len(body)}
                assert waiting["scene"] in {"leaderboard", "prize_table"}
                assert waiting["switched_ms"] > max(anchor, first["switched_ms"])
                proxy.release.set()
                shown = await until(_showing(ctl, {"attract"}), 30, "the new version playing")
                assert "media" not in shown
            finally:
                display.terminate()
                display.wait(10)


def _showing(ctl: LiveController, scenes: set[str]):
    async def check() -> dict[str, Any] | None:
        row = await report(ctl)
        return row if row.get("scene") in scenes else None
    return check


def _waiting(ctl: LiveController, anchor: int):
    """The report once the screen has switched scenes after `anchor` and reports media."""
    async def check() -> dict[str, Any] | None:
        row = await report(ctl)
        late = row.get("switched_ms", 0) > anchor
        return row if late and row.get("media") else None
    return check


async def test_a_video_named_as_an_attract_picture_is_refused_at_check_and_assignment(
        tmp_path: Path, log_at) -> None:
    async with live_controller(log_at) as ctl, ctl.client("technician") as tech:
        await enrol_screen(ctl)
        mp4 = make_clip(tmp_path / "intro.mp4", frames=15).read_bytes()
        status, added = await upload(ctl.url, ctl.keys["technician"], mp4, "intro.mp4")
        assert (status, added["kind"]) == (200, "video")
        yaml = V2.replace("promo.png", "intro.mp4")
        checked = await tech.call("check_playlist", {"file": "stage.yaml", "yaml": yaml})
        assigned = await tech.send("playlists.assign", {"file": "stage.yaml", "yaml": yaml,
                                                        "groups": ["stage"]})
        for answer in (checked, assigned):
            assert answer["error"]["code"] == "wrong_kind"
            assert "'intro.mp4' is a video, and `images` takes pictures" in \
                answer["error"]["message"]


async def test_a_form_that_does_not_parse_is_refused_in_words(log_at) -> None:
    async with live_controller(log_at) as ctl, aiohttp.ClientSession() as http:
        for content_type in ("multipart/form-data", "multipart/form-data; boundary=x",
                             "application/json"):
            async with http.post(f"{ctl.url}/media", data=b"garbage", headers={
                    KEY_HEADER: ctl.keys["technician"], "Content-Type": content_type}) as got:
                answer = await got.json()
            assert got.status == 400, (content_type, answer)
            assert "form" in answer["error"], answer
        assert media_events(ctl.db_path) == 0
