"""Signatures through a real controller: `POST /signatures` checks and keeps the image, only
operators and auditors see it again, and a command naming an image never received is refused
(docs/signatures.md). Issue 23: "an empty or trivial signature (too few strokes), an
oversized one or a malformed one is refused with a sentence"."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import aiohttp
from PIL import Image

from tests.support.live import live_controller
from tests.support.signatures import post_signature, signature_png, signed
from tests.support.stores import by_hand


def rows(db_path: Path) -> tuple[list[tuple], list[tuple]]:
    """The log's events and the signatures table, to show a refusal changed neither."""
    with by_hand(db_path) as db:
        return (db.execute("SELECT seq, hash FROM events ORDER BY seq").fetchall(),
                db.execute("SELECT sha256 FROM signatures ORDER BY sha256").fetchall())


def blank_png(size: tuple[int, int] = (600, 200)) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", size, (0, 0, 0, 0)).save(out, format="PNG")
    return out.getvalue()


async def test_a_signature_is_kept_by_its_sha256_once(log_at) -> None:
    async with live_controller(log_at) as ctl:
        body = signature_png()
        status, answer = await post_signature(ctl.url, ctl.keys["operator"], body)
        assert status == 200 and answer == {"ok": True, "signature": {
            "sha256": hashlib.sha256(body).hexdigest(), "media_type": "image/png",
            "bytes": len(body), "width": 600, "height": 200, "strokes": 2}}
        again = await post_signature(ctl.url, ctl.keys["auditor"], body)
        assert again == (200, answer)  # content-addressed: one row
        with by_hand(ctl.db_path) as db:
            kept = db.execute("SELECT sha256, png, received_by FROM signatures").fetchall()
        assert kept == [(answer["signature"]["sha256"], body, "test operator")]


async def test_bad_signatures_are_refused_in_words_and_nothing_is_kept(log_at) -> None:
    # issue 23: an empty, a 5 MB and a non-image signature, and one stroke, each refused
    async with live_controller(log_at) as ctl:
        key = ctl.keys["operator"]
        before = rows(ctl.db_path)
        cases = {
            "empty canvas": (await post_signature(ctl.url, key, blank_png(), strokes=0),
                             400, "signature_empty"),
            "no body": (await post_signature(ctl.url, key, b""), 400, "signature_empty"),
            "5 MB": (await post_signature(ctl.url, key, b"\x89PNG\r\n\x1a\n" + b"x" * 5_000_000),
                     413, "signature_too_large"),
            "not an image": (await post_signature(ctl.url, key, b"hello, I am a signature"),
                             400, "signature_not_png"),
            "truncated PNG": (await post_signature(ctl.url, key, signature_png()[:300]),
                              400, "signature_not_png"),
            "one stroke": (await post_signature(ctl.url, key, signature_png(), strokes=1),
                           400, "signature_trivial"),
            "a dot": (await post_signature(ctl.url, key, signature_png(
                [[(300, 100), (304, 102)], [(306, 100), (308, 103)]])), 400, "signature_trivial"),
            "tiny image": (await post_signature(ctl.url, key, signature_png(size=(100, 30))),
                           400, "signature_too_small"),
            "huge image": (await post_signature(ctl.url, key, blank_png((5000, 100))),
                           413, "signature_too_large"),
            "no stroke count": (await post_signature(ctl.url, key, signature_png(), strokes=None),
                                400, "signature_strokes"),
            "form post": (await post_signature(ctl.url, key, signature_png(),
                                               content_type="text/plain"),
                          415, "signature_not_png"),
        }
        for case, ((status, answer), want_status, code) in cases.items():
            assert (status, answer["ok"], answer["error"]["code"]) == (want_status, False, code), \
                case
            message = answer["error"]["message"]
            assert message.endswith(".") and "{" not in message, case
        assert rows(ctl.db_path) == before


async def test_only_operators_and_auditors_send_or_see_a_signature(log_at) -> None:
    # issue 23, privacy: signatures are personal information, for operators and auditors only
    async with live_controller(log_at) as ctl:
        ref = await signed(ctl.url, ctl.keys["operator"])
        for role in ("technician", "announcer", "display"):
            status, answer = await post_signature(ctl.url, ctl.keys[role], signature_png(seed=3))
            assert (status, answer["error"]["code"]) == (403, "not_allowed"), role
        assert len(rows(ctl.db_path)[1]) == 1
        url = f"{ctl.url}/signatures/{ref['sha256']}.png"
        async with aiohttp.ClientSession() as http:
            for role in ("operator", "auditor"):
                async with http.get(url, headers={"X-Showrunner-Key": ctl.keys[role]}) as got:
                    assert got.status == 200 and got.headers["Cache-Control"] == "no-store"
                    assert hashlib.sha256(await got.read()).hexdigest() == ref["sha256"]
            for role in ("technician", "announcer", "display"):
                async with http.get(url, headers={"X-Showrunner-Key": ctl.keys[role]}) as got:
                    assert got.status == 403, role
                    assert await got.text() == ("Only an operator or an auditor may send or see "
                                                "a signature.")
            async with http.get(url) as got:
                assert got.status == 401
            async with http.get(f"{ctl.url}/signatures/{'0' * 64}.png",
                                headers={"X-Showrunner-Key": ctl.keys["operator"]}) as got:
                assert got.status == 404


async def test_a_command_naming_a_signature_never_received_is_refused(log_at) -> None:
    async with live_controller(log_at) as ctl, ctl.client() as mc:
        ref = await signed(ctl.url, ctl.keys["operator"])
        before = rows(ctl.db_path)
        forged = {**ref, "sha256": "ab" * 32}
        changed = {**ref, "strokes": ref["strokes"] + 1}
        for signature in (forged, changed):
            ack = await mc.send("roulette.dispute", {"heat": "H1", "spin": 1, "card": "1234567",
                                                     "what": "Bet not paid",
                                                     "decision": "upheld",
                                                     "signature": signature})
            assert ack["error"] == {"code": "unknown_signature", "message":
                                    "The signature was not received; ask them to sign again."}
        assert rows(ctl.db_path) == before
