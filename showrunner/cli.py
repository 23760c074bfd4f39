"""`showrunner` command line: run a screen (`display`), render a scene to a PNG (`render`),
check playlists (`validate`), draw a playlist's contact sheet (`preview`) and check a floor PC
(`doctor`)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # before anything imports pygame

import yaml

from showrunner.contract.keyfile import KeyFileError, read_key
from showrunner.engine.layout import parse_size

DISPLAY_KEY_ENV = "SHOWRUNNER_DISPLAY_KEY"


def parse_params(items: Sequence[str]) -> dict[str, Any]:
    """['rows_per_page=12', 'images=[a.png, b.png]'] -> {'rows_per_page': 12, ...}: each value
    read as a YAML value, as it would be written in a playlist."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"--param wants key=value, not {item!r}")
        try:
            out[key.strip()] = yaml.safe_load(value) if value.strip() else value
        except yaml.YAMLError:
            out[key.strip()] = value
    return out


def controller_urls(text: str) -> tuple[str, ...]:
    """`--controller`: one URL, or several separated by commas (a controller and its standbys)."""
    urls = tuple(dict.fromkeys(u.strip().rstrip("/") for u in text.split(",") if u.strip()))
    for url in urls:
        if not url.startswith(("http://", "https://")):
            raise argparse.ArgumentTypeError(f"{url!r} is not a URL: give http://HOST:PORT")
    if not urls:
        raise argparse.ArgumentTypeError("give the controller's URL, e.g. http://host:8080")
    return urls


def size_arg(text: str) -> tuple[int, int]:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="showrunner", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    d = sub.add_parser("display", help="run one floor screen", allow_abbrev=False,
                       description="Show a scene on this screen with live views from the "
                       "controller; starts from the last-known views on disk.")
    d.add_argument("--controller", required=True, type=controller_urls,
                   help="controller URL, e.g. http://host:8080; or several separated by commas "
                   "(a controller and its standbys): the screen tries the next when one does "
                   "not answer")
    d.add_argument("--screen", required=True, help="this screen's id")
    d.add_argument("--key-file", type=Path, metavar="PATH",
                   help=f"file holding this screen's key, readable by its owner only "
                   f"(chmod 600); default: the {DISPLAY_KEY_ENV} environment variable")
    d.add_argument("--size", type=size_arg, help="window size WxH (default: desktop when "
                   "--fullscreen, else 1920x1080)")
    d.add_argument("--fullscreen", action="store_true")
    d.add_argument("--output", type=int, default=0, metavar="N",
                   help="the monitor to show on, 0 the first (default 0)")
    d.add_argument("--vsync", action="store_true",
                   help="present whole frames through the GPU in step with the monitor (no "
                   "tearing; costs more CPU without a GPU, and rules out partial presents)")
    d.add_argument("--hwaccel", choices=["vaapi"], help="decode video on the GPU (VA-API) "
                   "where this PC can; otherwise in software, said once in the log and in "
                   "the screen's telemetry (default: software)")
    d.add_argument("--state-dir", type=Path, default=Path("var/screens"),
                   help="where <screen>.json keeps the last-known views")
    d.add_argument("--snapshot", type=Path, help="write the current frame to this PNG")
    d.add_argument("--snapshot-every", type=float, default=10.0, metavar="SECONDS")
    d.add_argument("--scene", default="leaderboard", help="scene to show (until playlists)")
    d.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="scene parameter, e.g. view=leaderboard:slots (repeatable)")
    d.add_argument("--theme", type=Path, help="theme YAML (default: the shipped theme)")
    d.add_argument("--media-cache", type=Path, metavar="DIR", help="where the pictures and "
                   "videos fetched from the controller are kept (default: STATE_DIR/media)")
    d.add_argument("--media-url", metavar="URL", help="where to fetch media (default: the "
                   "controller; e.g. a fan-out process nearer the screen)")
    d.add_argument("--media-cache-mb", type=int, default=8192, metavar="MB",
                   help="the most the media cache keeps on disk (default: 8192)")

    r = sub.add_parser("render", help="render a scene to a PNG, headless",
                       description="Render SCENE at time --at (seconds after it enters, the "
                       "show clock starting at the state's saved time) to a PNG.")
    r.add_argument("scene")
    r.add_argument("--state", type=Path, required=True,
                   help="replica file (saved by display) or a plain {view: doc} JSON")
    r.add_argument("--at", type=float, default=0.0, metavar="SECONDS")
    r.add_argument("--start-ms", type=int, help="show clock at entry, UTC epoch ms "
                   "(default: the state's saved_at_ms, else 0)")
    r.add_argument("--size", type=size_arg, default=(1920, 1080))
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    r.add_argument("--theme", type=Path)

    v = sub.add_parser("validate", help="check playlist files",
                       description="Check playlists; every error is printed as "
                       "file:line:column: message. Exits 1 if any file has an error.")
    v.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    v.add_argument("--media-dir", type=Path, metavar="DIR",
                   help="where the videos the playlists name are, as the screens' working "
                   "directory (default: each playlist's own folder)")
    v.add_argument("--screen-size", type=size_arg, default=(1920, 1080), metavar="WxH",
                   help="the screens the playlists play on, to warn of larger videos "
                   "(default 1920x1080)")

    p = sub.add_parser("preview", help="draw a playlist's scenes as a contact sheet PNG")
    p.add_argument("path", type=Path, metavar="PATH")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--state", type=Path, help="views to draw with (replica or {view: doc}); "
                   "default: the scenes' built-in samples")
    p.add_argument("--at", type=float, default=3.0, metavar="SECONDS")
    doc = sub.add_parser("doctor", help="check this floor PC and say what to fix")
    doc.add_argument("--controller", help="controller URL, to check the clock against it")
    doc.add_argument("--key-file", type=Path, metavar="PATH")
    doc.add_argument("--state-dir", type=Path, default=Path("var/screens"))
    doc.add_argument("--output", type=int, default=0, metavar="N")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        params = parse_params(getattr(args, "param", []))
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    if args.command == "render":
        return render(args, params)
    if args.command == "validate":
        return validate(args.paths, args.media_dir, args.screen_size)
    if args.command == "preview":
        return preview(args)
    if args.command == "doctor":
        from showrunner import doctor
        return doctor.run(args.controller, args.key_file, args.state_dir, args.output)
    return display(args, params)


def render(args: argparse.Namespace, params: dict[str, Any]) -> int:
    import pygame

    from showrunner.engine.display import save_png
    from showrunner.engine.render import render_scene
    from showrunner.engine.replica import Replica
    from showrunner.engine.theme import Theme

    replica = Replica.from_state_file(args.state)
    start = args.start_ms if args.start_ms is not None else (replica.saved_at_ms or 0)
    try:
        frame = render_scene(args.scene, replica.views, args.at, args.size, params, start,
                             Theme.load(args.theme))
    except ValueError as exc:
        print(f"showrunner render: {exc}", file=sys.stderr)
        return 2
    save_png(frame, args.out)
    pygame.quit()
    print(args.out)
    return 0


def validate(paths: Sequence[Path], media_dir: Path | None = None,
             screen: tuple[int, int] = (1920, 1080)) -> int:
    """Check each playlist and open each video it names, under `media_dir` or else beside
    the playlist (a playlist kept with its videos validates alike from any folder); warnings
    alone pass."""
    from showrunner.contract.playlist.files import check_file
    from showrunner.contract.playlist.validate import VideoCheck, errors
    from showrunner.video.probe import file_check

    failed = 0
    checks: dict[Path, VideoCheck] = {}  # one a folder: each video is opened once
    for path in paths:
        base = media_dir if media_dir is not None else path.parent
        if base not in checks:
            checks[base] = file_check(base, screen)
        _doc, problems = check_file(path, checks[base])
        for problem in problems:
            print(problem, file=sys.stderr)
        failed += bool(errors(problems))
    if failed:
        print(f"{failed} of {len(paths)} playlist(s) have errors", file=sys.stderr)
        return 1
    print(f"{len(paths)} playlist(s) OK")
    return 0


def preview(args: argparse.Namespace) -> int:
    from showrunner.contract.playlist.files import check_file
    from showrunner.contract.playlist.validate import errors
    from showrunner.engine.preview import contact_sheet

    doc, problems = check_file(args.path)
    for problem in problems:
        print(problem, file=sys.stderr)
    if errors(problems) or doc is None:
        return 1
    contact_sheet(doc, args.out, args.state, args.at)
    print(args.out)
    return 0


def display(args: argparse.Namespace, params: dict[str, Any]) -> int:
    from showrunner.engine.display import Display, DisplayOptions, NoSuchOutput

    try:
        key = read_key(args.key_file, DISPLAY_KEY_ENV, "this screen's key")
    except KeyFileError as exc:
        print(f"showrunner display: {exc}", file=sys.stderr)
        return 2
    options = DisplayOptions(
        controller=args.controller, screen=args.screen, key=key, size=args.size,
        fullscreen=args.fullscreen, state_dir=args.state_dir, snapshot=args.snapshot,
        snapshot_every=args.snapshot_every, scene=args.scene, params=params, theme=args.theme,
        output=args.output, vsync=args.vsync, hwaccel=args.hwaccel, media_dir=args.media_cache,
        media_url=args.media_url, media_limit_bytes=args.media_cache_mb * 2**20)
    try:
        return Display(options).run()
    except NoSuchOutput as exc:
        print(f"showrunner display: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
