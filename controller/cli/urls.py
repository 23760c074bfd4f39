"""`--url`: the controller's address, or every controller's of one PostgreSQL log with commas
(a device feed goes to whichever leads: docs/operations.md)."""

from __future__ import annotations

import argparse


def controller_urls(text: str) -> tuple[str, ...]:
    urls = tuple(u.strip().rstrip("/") for u in text.split(",") if u.strip())
    if not urls or any(not u.startswith(("http://", "https://")) for u in urls):
        raise argparse.ArgumentTypeError(
            f"give the controller's http(s) address, e.g. http://10.0.0.5:8080 (several with "
            f"commas: http://10.0.0.5:8080,http://10.0.0.6:8080), not {text!r}")
    return urls
