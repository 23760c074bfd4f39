"""`media add FILE [--name NAME]`: a technician adds a picture or a video to a running
controller (--url), which keeps it by its SHA-256 and sends it to the screens whose playlists
name it (docs/playlists.md, "Media"). The key is a technician's, from --key-file or the
SHOWRUNNER_KEY environment variable, never from the command line."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import aiohttp

from controller.cli.screens import TECHNICIAN_KEY_ENV
from controller.http.client import add_media
from showrunner.contract.keyfile import read_key


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    media = sub.add_parser("media", help="pictures and videos for the screens",
                           allow_abbrev=False)
    verbs = media.add_subparsers(dest="verb", required=True)
    add = verbs.add_parser("add", help="add a picture or video (kept by its SHA-256)",
                           allow_abbrev=False)
    add.add_argument("file", type=Path, metavar="FILE")
    add.add_argument("--name", help="the name playlists use (default: the file's own name)")
    add.add_argument("--url", default=os.environ.get("SHOWRUNNER_URL", "http://127.0.0.1:8080"))
    add.add_argument("--key-file", type=Path, metavar="PATH",
                     help="file holding a technician key, readable by its owner only (chmod "
                     f"600); default: the {TECHNICIAN_KEY_ENV} environment variable")
    add.set_defaults(run=_add)


def _add(args: argparse.Namespace) -> int:
    key = read_key(args.key_file, TECHNICIAN_KEY_ENV, "a technician key")
    if not args.file.is_file():
        print(f"refused: {args.file} is not a file.", file=sys.stderr)
        return 1
    try:
        status, answer = add_media(args.url, key, args.file, args.name)
    except (aiohttp.ClientError, OSError) as exc:
        print(f"refused: cannot reach the controller at {args.url} ({exc}).", file=sys.stderr)
        return 1
    if status != 200:
        print(f"refused: {answer.get('error', answer)}", file=sys.stderr)
        return 1
    print(f"added {answer['name']} ({answer['kind']}, {answer['size']} bytes, "
          f"sha256 {answer['sha256']})")
    return 0
